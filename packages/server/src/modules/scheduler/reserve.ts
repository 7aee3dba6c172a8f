import type { SchedNode, WaitingJob } from './decide.js';
import { RESOURCES, fits, type Resources } from './resources.js';
import { perJobOn, workersFitting, workersOf } from './place.js';

/**
 * No starvation (decide.ts, docs/scheduling.md): the nodes a job that waited too long keeps for
 * itself, one worker's or a gang's. They are the nodes closest to holding its workers (the most
 * of its workers fitting there now, then the most free for one), as many as hold all of them once
 * the jobs running there end. Nothing behind it in the order starts on them meanwhile; every
 * other node stays open to all (a small job is backfilled only where it cannot delay it).
 * Null when the nodes it may use could not hold it even empty.
 */
export function reservation(
  job: WaitingJob,
  nodes: SchedNode[],
  freeOf: (n: SchedNode) => Resources,
): string[] | null {
  const workers = workersOf(job);
  const asked = RESOURCES.filter((r) => (job.requests[r] ?? 0) > 0);
  const ranked = nodes
    .filter((n) => fits(job.requests, n.capacity))
    .map((n) => {
      const free = freeOf(n);
      return {
        node: n.name,
        now: workersFitting(job.requests, workers, [free], [perJobOn(n)]),
        room: workersFitting(job.requests, workers, [n.capacity], [perJobOn(n)]),
        closeness: Math.min(...asked.map((r) => (free[r] ?? 0) / job.requests[r]!)),
      };
    })
    // Stable: between equals, the first node.
    .sort((a, b) => b.now - a.now || b.closeness - a.closeness);
  const kept: string[] = [];
  let room = 0;
  for (const r of ranked) {
    if (room >= workers) break;
    kept.push(r.node);
    room += r.room;
  }
  return room >= workers ? kept : null;
}
