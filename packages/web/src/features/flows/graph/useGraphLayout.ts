import { useEffect, useMemo, useState } from 'react';
import type { BakeGraphs } from '@orrery/contract';
import { layoutShape, shapeOf, type GraphShape } from './layout';

export const LAYOUT_MEASURE = 'orrery:bake-graph-layout';

export interface GraphLayout {
  shape: GraphShape;
  positions: Map<string, { x: number; y: number }>;
}

/**
 * The layout of a bake's graphs, made once per graph shape (a refetched bake with the same graphs
 * keeps it). It is made just after the commit that starts the tasks' request, so that laying out
 * a large bake overlaps with fetching its tasks instead of delaying the request.
 */
export function useGraphLayout(graphs: BakeGraphs | undefined): GraphLayout | null {
  const key = useMemo(() => (graphs ? JSON.stringify(graphs) : null), [graphs]);
  const [done, setDone] = useState<{ key: string; layout: GraphLayout } | null>(null);
  const ready = done !== null && done.key === key;
  useEffect(() => {
    if (key === null || ready) return;
    const timer = setTimeout(() => {
      const t0 = performance.now();
      const shape = shapeOf(JSON.parse(key) as BakeGraphs);
      const positions = layoutShape(shape);
      // A User Timing entry: the browser bench reports the layout's share of the first paint.
      performance.measure(LAYOUT_MEASURE, { start: t0, end: performance.now() });
      setDone({ key, layout: { shape, positions } });
    }, 0);
    return () => clearTimeout(timer);
  }, [key, ready]);
  return ready ? done.layout : null;
}
