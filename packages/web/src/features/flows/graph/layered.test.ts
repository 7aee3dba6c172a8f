import { describe, expect, it } from 'vitest';
import { NODE_SIZE } from '../texts';
import { layeredLayout } from './layered';
import { LARGE_GRAPH, layoutShape, shapeOf, type GraphShape } from './layout';

/** `n` tasks in layers of `width`, each needing two of the layer above (the bench's bake). */
function layered(n: number, width: number) {
  const graph: Record<string, string[]> = {};
  for (let i = 0; i < n; i++) {
    const above = i - width;
    graph[`t${i}`] =
      above < 0
        ? []
        : [`t${above}`, `t${Math.floor(above / width) * width + ((above + 7) % width)}`];
  }
  return shapeOf({ '': graph });
}

/** Needs above dependants, and no two nodes of a row overlapping. */
function expectReadable(shape: GraphShape, at: Map<string, { x: number; y: number }>) {
  expect([...at.keys()].sort()).toEqual([...shape.ids].sort());
  for (const e of shape.edges) {
    expect(at.get(e.target)!.y).toBeGreaterThanOrEqual(at.get(e.source)!.y + NODE_SIZE.height);
  }
  const rows = new Map<number, number[]>();
  for (const p of at.values()) rows.set(p.y, [...(rows.get(p.y) ?? []), p.x]);
  for (const xs of rows.values()) {
    xs.sort((a, b) => a - b);
    for (let i = 1; i < xs.length; i++) {
      expect(xs[i]! - xs[i - 1]!).toBeGreaterThanOrEqual(NODE_SIZE.width);
    }
  }
}

describe('the layered layout of large bakes', () => {
  it('lays a 1,000-task bake out in rows by depth, and layoutShape uses it past LARGE_GRAPH', () => {
    const shape = layered(1000, 50);
    const at = layeredLayout(shape);
    expectReadable(shape, at);
    expect(new Set([...at.values()].map((p) => p.y)).size).toBe(20);
    expect(layoutShape(shape)).toEqual(at);
    expect(shape.ids.length).toBeGreaterThan(LARGE_GRAPH);
  });

  it('keeps a task under the needs it reads', () => {
    const shape = shapeOf({
      '': { a: [], b: [], c: [], under_c: ['c'], under_a: ['a'], under_b: ['b'] },
    });
    const at = layeredLayout(shape);
    expectReadable(shape, at);
    const order = (ids: string[]) => ids.sort((x, y) => at.get(x)!.x - at.get(y)!.x);
    expect(order(['under_a', 'under_b', 'under_c'])).toEqual(['under_a', 'under_b', 'under_c']);
  });

  it('walks a chain of 5,000 tasks and a cycle without overflowing or looping', () => {
    const chain: Record<string, string[]> = { t0: [] };
    for (let i = 1; i < 5000; i++) chain[`t${i}`] = [`t${i - 1}`];
    const shape = shapeOf({ '': chain });
    expect(layeredLayout(shape).get('t4999')!.y).toBeGreaterThan(layeredLayout(shape).get('t0')!.y);
    const cycle = layeredLayout(shapeOf({ '': { a: ['c'], b: ['a'], c: ['b'] } }));
    expect(cycle.size).toBe(3);
  });
});
