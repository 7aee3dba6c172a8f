import { flowTime, type AttemptWire, type BakeWire } from '@orrery/contract';
import type { AttemptRow, BakeRow } from '../store.js';

/** An attempt as the flow API answers it. */
export const attemptWire = (a: AttemptRow): AttemptWire => ({
  id: a.id,
  bake_id: a.bakeId,
  number: a.number,
  created_at: flowTime(a.createdAt),
  result: a.result,
  configs_meta: a.configsMeta,
  executor_id: a.executorId,
});

/** A bake with its last attempt embedded, as `bakes/{id}?fetch_last_attempt=1` answers it. */
export const bakeWire = (b: BakeRow, last: AttemptRow | null): BakeWire => ({
  id: b.id,
  project_id: b.projectId,
  name: b.name,
  batch: b.batch,
  tags: b.tags,
  created_at: flowTime(b.createdAt),
  graphs: b.graphs,
  params: b.params,
  meta: { git_info: (b.meta.git_info as BakeWire['meta']['git_info']) ?? null },
  last_attempt: last ? attemptWire(last) : null,
});
