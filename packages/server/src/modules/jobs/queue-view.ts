import {
  QUOTA_RESOURCES,
  type ClusterQueue,
  type QueueStanding,
  type ResourceAmounts,
} from '@orrery/contract';
import { standings, type SchedulerInput } from '../scheduler/decide.js';
import { scale, subtract, sum, type Resources } from '../scheduler/resources.js';
import type { Quota } from '../scheduler/weights.js';
import type { JobQueue } from './queue.js';
import type { JobRow } from './store.js';

const EMPTY: SchedulerInput = {
  nodes: [],
  running: [],
  waiting: [],
  now: 0,
  starvationMs: 0,
};

/** What `used` holds beyond the nominal quota, per resource with a nominal figure. */
function borrowedOf(used: Resources, quota: Quota | undefined): ResourceAmounts {
  const out: ResourceAmounts = {};
  for (const r of QUOTA_RESOURCES) {
    const nominal = quota?.nominal?.[r];
    if (nominal !== undefined && (used[r] ?? 0) > nominal) out[r] = (used[r] ?? 0) - nominal;
  }
  return out;
}

const quotaOf = (q: Quota | undefined): QueueStanding['quota'] =>
  q?.nominal || q?.borrowingLimit
    ? { nominal: q.nominal ?? {}, borrowing_limit: q.borrowingLimit ?? {} }
    : null;

/**
 * A cluster's queue as the last admission pass saw it (docs/scheduling.md): capacity, each
 * organization and project with its quota, use, borrowed part and fair-share standing, and
 * every unfinished job of the cluster with its place.
 */
export function clusterQueue(queue: JobQueue, cluster: string, rows: JobRow[]): ClusterQueue {
  const input = queue.lastInput() ?? EMPTY;
  const prefix = `${cluster}/`;
  const mine = (k: string) => k.startsWith(prefix);
  const stand = standings({
    ...input,
    running: input.running.filter((j) => mine(j.org)),
    waiting: input.waiting.filter((j) => mine(j.org)),
  });
  const jobs = rows.filter((j) => j.clusterName === cluster);
  const count = (key: string, running: boolean) =>
    jobs.filter(
      (j) =>
        j.materialized === running &&
        (`${prefix}${j.orgName}` === key || `${prefix}${j.orgName}/${j.projectName}` === key),
    ).length;
  const standing = (key: string, quota: Quota | undefined): QueueStanding => {
    const s = stand.get(key) ?? { used: {}, share: 0 };
    return {
      quota: quotaOf(quota),
      used: s.used,
      borrowed: borrowedOf(s.used, quota),
      share: s.share,
      running: count(key, true),
      pending: count(key, false),
    };
  };
  const orgNames = [...new Set(jobs.map((j) => j.orgName))].sort();
  const capacity = sum(input.nodes.map((n) => n.capacity));
  const held = sum(input.running.map((j) => scale(j.requests, j.workers ?? 1)));
  const byId = new Map(input.running.concat(input.waiting as never[]).map((j) => [j.id, j]));
  return {
    cluster,
    capacity,
    free: subtract(capacity, held),
    orgs: orgNames.map((org) => {
      const key = `${prefix}${org}`;
      const projects = [
        ...new Set(jobs.filter((j) => j.orgName === org).map((j) => j.projectName)),
      ];
      return {
        org,
        ...standing(key, input.orgs?.get(key)),
        projects: projects.sort().map((project) => ({
          project,
          ...standing(`${key}/${project}`, input.projects?.get(`${key}/${project}`)),
        })),
      };
    }),
    jobs: jobs.map((j) => {
      const s = queue.scheduling(j);
      return {
        id: j.id,
        name: j.name,
        org: j.orgName,
        project: j.projectName,
        owner: j.owner,
        status: j.status,
        priority: j.priority,
        preemptible: j.preemptible || j.schedulerEnabled,
        // A gang's whole request: every worker's.
        requests: scale(byId.get(j.id)?.requests ?? {}, byId.get(j.id)?.workers ?? 1),
        position: s.position,
        message: s.message,
      };
    }),
  };
}
