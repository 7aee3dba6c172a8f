import { NODE_SIZE } from '../texts';
import type { GraphShape } from './layout';

/** Room between nodes of a row and between rows, as the dagre layout leaves. */
export const NODE_GAP = { x: 40, y: 60 };

/**
 * A task's row: 0 without needs, else one below its deepest need (a need named in a cycle, which
 * the client refuses but a recorded bake could hold, counts as a root instead of looping).
 */
function rowsOf(shape: GraphShape): Map<string, number> {
  const needs = new Map<string, string[]>(shape.ids.map((id) => [id, []]));
  for (const e of shape.edges) needs.get(e.target)?.push(e.source);
  const rows = new Map<string, number>();
  const visiting = new Set<string>();
  const rowOf = (root: string): number => {
    // An explicit stack: a chain of a thousand tasks would overflow a recursive walk.
    const stack = [root];
    while (stack.length > 0) {
      const id = stack[stack.length - 1]!;
      if (rows.has(id)) {
        stack.pop();
        continue;
      }
      visiting.add(id);
      const open = needs.get(id)!.filter((n) => !rows.has(n) && !visiting.has(n));
      if (open.length > 0) {
        stack.push(...open);
        continue;
      }
      let row = 0;
      for (const n of needs.get(id)!) row = Math.max(row, (rows.get(n) ?? -1) + 1);
      rows.set(id, row);
      visiting.delete(id);
      stack.pop();
    }
    return rows.get(root)!;
  };
  for (const id of shape.ids) rowOf(id);
  return rows;
}

/**
 * A layered layout in linear time for large bakes, where dagre takes about half a second of the
 * first paint: rows by depth (needs above their dependants, as dagre's `longest-path` ranks
 * them), each row ordered by the mean place of its tasks' needs in the rows above (one
 * barycentre sweep, which keeps a task under what it reads), rows centred on each other.
 * Returns top-left corners of nodes of the task node's size.
 */
export function layeredLayout(shape: GraphShape): Map<string, { x: number; y: number }> {
  const rows = rowsOf(shape);
  const needs = new Map<string, string[]>(shape.ids.map((id) => [id, []]));
  for (const e of shape.edges) needs.get(e.target)?.push(e.source);
  const byRow: string[][] = [];
  for (const id of shape.ids) (byRow[rows.get(id)!] ??= []).push(id);

  const place = new Map<string, number>();
  byRow.forEach((row, r) => {
    if (r > 0) {
      const key = new Map<string, number>();
      row.forEach((id, i) => {
        const seen = needs.get(id)!.filter((n) => place.has(n));
        const mean = seen.reduce((sum, n) => sum + place.get(n)!, 0) / (seen.length || 1);
        // Ties (and tasks without placed needs) keep the bake's order.
        key.set(id, seen.length ? mean + i * 1e-6 : i);
      });
      row.sort((a, b) => key.get(a)! - key.get(b)!);
    }
    row.forEach((id, i) => place.set(id, i - (row.length - 1) / 2));
  });

  const stepX = NODE_SIZE.width + NODE_GAP.x;
  const stepY = NODE_SIZE.height + NODE_GAP.y;
  let widest = 0;
  for (const row of byRow) widest = Math.max(widest, row?.length ?? 0);
  const out = new Map<string, { x: number; y: number }>();
  for (const id of shape.ids) {
    const centre = (place.get(id)! + (widest - 1) / 2) * stepX;
    out.set(id, { x: centre, y: rows.get(id)! * stepY });
  }
  return out;
}
