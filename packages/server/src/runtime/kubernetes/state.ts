import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import type { ObservedState } from '../driver.js';
import { CONTAINER } from './names.js';

const date = (d: Date | string | undefined) => (d ? new Date(d) : undefined);

/**
 * Why a Pod waits, for the job's history: the container's waiting reason (ErrImagePull,
 * CreateContainerConfigError…), else the scheduler's condition, else the Pod's latest warning
 * event (FailedScheduling, FailedMount…), else ContainerCreating.
 */
export function pendingReason(pod: V1Pod, events: CoreV1Event[]): ObservedState {
  const waiting = pod.status?.containerStatuses?.find((c) => c.name === CONTAINER)?.state?.waiting;
  if (waiting?.reason && waiting.reason !== 'ContainerCreating') {
    return { state: 'starting', reason: waiting.reason, message: waiting.message };
  }
  const latest = [...events]
    .filter((e) => e.type === 'Warning')
    .sort((a, b) => eventTime(b) - eventTime(a))[0];
  if (latest?.reason) return { state: 'starting', reason: latest.reason, message: latest.message };
  const unscheduled = pod.status?.conditions?.find(
    (c) => c.type === 'PodScheduled' && c.status === 'False',
  );
  if (unscheduled) {
    return {
      state: 'starting',
      reason: unscheduled.reason ?? 'Unschedulable',
      message: unscheduled.message,
    };
  }
  return { state: 'starting', reason: 'ContainerCreating' };
}

function eventTime(e: CoreV1Event): number {
  const t = e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata?.creationTimestamp;
  return t ? new Date(t).getTime() : 0;
}

/** What a Pod's status says of the job (events only matter while it is pending). */
export function observedOf(pod: V1Pod | null, events: CoreV1Event[] = []): ObservedState {
  if (!pod) return { state: 'missing' };
  const status = pod.status;
  const c = status?.containerStatuses?.find((s) => s.name === CONTAINER);
  const terminated = c?.state?.terminated;
  if (terminated) {
    return {
      state: 'exited',
      exitCode: terminated.exitCode,
      finishedAt: date(terminated.finishedAt) ?? new Date(),
      startedAt: date(terminated.startedAt),
      ...(terminated.reason && terminated.reason !== 'Completed' && terminated.reason !== 'Error'
        ? { reason: terminated.reason }
        : {}),
      ...(terminated.message ? { message: terminated.message } : {}),
    };
  }
  if (status?.phase === 'Failed' || status?.phase === 'Succeeded') {
    // Ended before its container did anything (evicted, deadline, node lost).
    return {
      state: 'exited',
      exitCode: status.phase === 'Succeeded' ? 0 : 137,
      finishedAt: new Date(),
      reason: status.reason ?? 'Error',
      message: status.message,
    };
  }
  if (c?.state?.running) {
    return { state: 'running', startedAt: date(c.state.running.startedAt) ?? new Date() };
  }
  return pendingReason(pod, events);
}
