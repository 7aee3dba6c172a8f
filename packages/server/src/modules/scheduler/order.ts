import { RESOURCES } from './resources.js';
import type { JobBase, WaitingJob } from './decide.js';

/** The order of an admission pass (decide.ts): projects by share, their jobs by priority and age. */

/** A project's waiting jobs in its order, read from `at`; `stamp` tells its current heap entry. */
export interface Queue {
  key: string;
  org: string;
  queue: WaitingJob[];
  at: number;
  stamp: number;
}
export interface Entry {
  p: Queue;
  stamp: number;
  org: number;
  share: number;
  head: WaitingJob;
}

/** Higher priority first, then the oldest. */
export const queueOrder = (a: WaitingJob, b: WaitingJob) =>
  b.priority - a.priority || a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1);

/** What a job asks for and where: jobs of one shape fit, or do not, on the same nodes. */
export const shapeOf = (j: JobBase) =>
  `${RESOURCES.map((r) => j.requests[r] ?? 0).join(',')}|${j.pools?.join(',') ?? ''}|${j.workers ?? 1}`;

/** The organization's share, then the project's, then the head job's place in its queue. */
export const byShare = (a: Entry, b: Entry) =>
  a.org - b.org || a.share - b.share || queueOrder(a.head, b.head);
