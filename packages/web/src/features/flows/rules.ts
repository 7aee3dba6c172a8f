import { KILLABLE_RESULTS, type BakeWire, type TaskStatus, type TaskWire } from '@orrery/contract';
import { useProjectCan } from '../../api/project-can';

/**
 * Pending and suspended warn; succeeded, running and cached are fine; failed and
 * cancelled are errors. Skipped and unknown tasks (the flow API's own) are neither: grey.
 */
export const STATUS_COLOR: Record<TaskStatus, string> = {
  pending: 'yellow',
  running: 'green',
  succeeded: 'green',
  cached: 'green',
  failed: 'red',
  cancelled: 'red',
  skipped: 'gray',
  unknown: 'gray',
};

/** A bake whose last attempt is pending or running: it can be killed and is worth polling. */
export const isLive = (result: TaskStatus | undefined | null) =>
  !!result && KILLABLE_RESULTS.includes(result);

/** Restart from failed re-runs the failed, cancelled and skipped tasks of a finished attempt. */
export const canRestart = (result: TaskStatus | undefined | null) =>
  result === 'failed' || result === 'cancelled';

export const bakeLabel = (b: Pick<BakeWire, 'id' | 'name'>) => b.name || b.id;

/** A task's status is the last of its history. */
export const taskStatus = (t: Pick<TaskWire, 'statuses'>): TaskStatus =>
  t.statuses.at(-1)?.status ?? 'unknown';

/**
 * The jobs of a flow are tagged `project:<flow id>` by the flow client and the engine alike; the
 * Jobs page turns `flowName` into that tag (jobs/list/useListParams.ts).
 */
export const flowJobsLink = (flow: { id: string; name: string }) =>
  `/jobs?${new URLSearchParams({ flowName: flow.name, projectId: flow.id })}`;

export const bakesLink = (flow: { id: string; name: string }) =>
  `/flows/${encodeURIComponent(flow.id)}/${encodeURIComponent(flow.name)}`;

export const graphLink = (flow: { id: string; name: string }, bake: BakeWire) =>
  `${bakesLink(flow)}/bakes/${encodeURIComponent(bake.id)}${
    bake.name ? `/${encodeURIComponent(bake.name)}` : ''
  }`;

/**
 * Starting, killing, restarting and deleting need write on the project's flows
 * (`flow://CLUSTER/ORG/PROJECT`), as the flow routes check: the permission engine's answer, shown
 * through `WhyNot`.
 */
export const useFlowWrite = () => useProjectCan('write', 'flow');
