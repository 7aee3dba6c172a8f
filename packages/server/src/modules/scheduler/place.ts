import type { JobBase, RunningJob, SchedNode } from './decide.js';
import { dominantShare, fits, subtract, type Resources } from './resources.js';

/** Where a job's workers go (decide.ts): one worker, or a gang's, each whole on a node. */

export const workersOf = (j: JobBase) => j.workers ?? 1;
/** Each of a running job's workers' node, in rank order. */
export const nodesOf = (j: RunningJob) => j.nodes ?? [j.node];
/** How many workers of one job a node may hold beside what fits (the runtime's rule). */
export const perJobOn = (n: SchedNode) => n.workersPerJob ?? Infinity;

/**
 * A node for each of `workers` workers asking for `requests`, each the one it fits tightest
 * given the workers placed before it (so large free blocks stay whole), or null when they do not
 * all fit at once. The workers are alike, so how many fit on a node does not depend on where the
 * others went: placing them one by one finds room for all whenever there is.
 */
export function placeWorkers(
  requests: Resources,
  workers: number,
  nodes: SchedNode[],
  freeOf: (n: SchedNode) => Resources,
): string[] | null {
  const free = new Map(nodes.map((n) => [n.name, freeOf(n)]));
  const placed: string[] = [];
  const count = (n: SchedNode) => placed.filter((p) => p === n.name).length;
  for (let w = 0; w < workers; w++) {
    let best: { node: string; left: number } | undefined;
    for (const n of nodes) {
      const f = free.get(n.name)!;
      if (!fits(requests, f) || count(n) >= perJobOn(n)) continue;
      const left = dominantShare(subtract(f, requests), n.capacity);
      if (!best || left < best.left) best = { node: n.name, left };
    }
    if (!best) return null;
    placed.push(best.node);
    free.set(best.node, subtract(free.get(best.node)!, requests));
  }
  return placed;
}

/**
 * How many of a gang's workers fit now, at most `workers` (for its wait reason), on nodes with
 * `free` each, and at most `most[i]` on the i-th (perJobOn; absent: as many as fit).
 */
export function workersFitting(
  requests: Resources,
  workers: number,
  free: Resources[],
  most: number[] = [],
) {
  let n = 0;
  for (const [i, start] of free.entries()) {
    let f = start;
    for (let here = 0; n < workers && here < (most[i] ?? Infinity) && fits(requests, f); here++) {
      f = subtract(f, requests);
      n++;
    }
  }
  return n;
}
