import { graphlib, layout } from '@dagrejs/dagre';
import type { BakeGraphs } from '@orrery/contract';
import { NODE_SIZE } from '../texts';
import { NODE_GAP, layeredLayout } from './layered';

export interface GraphShape {
  /** Full task ids (dot-joined under their prefix), in the bake's order. */
  ids: string[];
  /** Need → dependant, both full ids. */
  edges: { source: string; target: string }[];
}

const join = (prefix: string, id: string) => (prefix ? `${prefix}.${id}` : id);

/**
 * The tasks of a bake and their needs from its `graphs` (`{prefix: {task: [needs]}}`, where `""`
 * is the top level and nested tasks are named `prefix.task`). A need only names a task of the
 * same prefix.
 */
export function shapeOf(graphs: BakeGraphs): GraphShape {
  const ids: string[] = [];
  const edges: GraphShape['edges'] = [];
  const seen = new Set<string>();
  for (const [prefix, tasks] of Object.entries(graphs)) {
    for (const [id, needs] of Object.entries(tasks)) {
      const full = join(prefix, id);
      if (!seen.has(full)) {
        seen.add(full);
        ids.push(full);
      }
      for (const need of needs) edges.push({ source: join(prefix, need), target: full });
    }
  }
  // A need outside the graph would make the layout invent a node; such an edge is left out.
  return { ids, edges: edges.filter((e) => seen.has(e.source)) };
}

/** Above this many tasks the graph is laid out by layeredLayout instead of dagre. */
export const LARGE_GRAPH = 300;

/**
 * Top-left corners for nodes of the task node's size (225 × 84), needs above their dependants.
 * Up to LARGE_GRAPH tasks dagre lays them out, with its crossing reduction; a task's rank is its
 * depth (`longest-path`): what a bake means, and fast, where dagre's default ranker takes tens of
 * seconds on a 1,000-task bake. Larger bakes get the linear layered layout, since dagre's
 * ordering passes alone cost about half a second of a 1,000-task bake's first paint.
 */
export function layoutShape(shape: GraphShape): Map<string, { x: number; y: number }> {
  if (shape.ids.length > LARGE_GRAPH) return layeredLayout(shape);
  const g = new graphlib.Graph();
  g.setGraph({
    rankdir: 'TB',
    nodesep: NODE_GAP.x,
    ranksep: NODE_GAP.y,
    ranker: 'longest-path',
  });
  g.setDefaultEdgeLabel(() => ({}));
  for (const id of shape.ids) g.setNode(id, { width: NODE_SIZE.width, height: NODE_SIZE.height });
  for (const e of shape.edges) g.setEdge(e.source, e.target);
  layout(g);
  const out = new Map<string, { x: number; y: number }>();
  for (const id of shape.ids) {
    const n = g.node(id);
    // dagre places centres; React Flow places top-left corners.
    out.set(id, { x: n.x - NODE_SIZE.width / 2, y: n.y - NODE_SIZE.height / 2 });
  }
  return out;
}
