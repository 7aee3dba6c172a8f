import { formatMemory, JOB_REASONS } from '@orrery/contract';
import type { ObservedState } from '../driver.js';
import type { SlurmJob } from './client.js';

/** A raw wait status as Slurm reports it (exit 3 → 768) as a shell would: 3, or 128 + signal. */
export function exitCodeOf(raw: number): number {
  const signal = raw & 0x7f;
  return signal ? 128 + signal : (raw >> 8) & 0xff;
}

/** No real signal is numbered this high: Slurm's mark of an OOM-killed step. */
const OOM_MARK = 125;

const at = (epochS: number) => (epochS > 0 ? new Date(epochS * 1000) : undefined);

/** What Slurm's view of a job says of it; `memory` (bytes) names the limit of an OOM kill. */
export function observedOf(j: SlurmJob, memory: number): ObservedState {
  const startedAt = at(j.startTime);
  if (requeued(j)) return lostWithNode(j, { startedAt, finishedAt: new Date() }, 137);
  switch (j.state) {
    case 'PENDING':
    case 'CONFIGURING':
    case 'REQUEUED':
      return {
        state: 'starting',
        reason: j.reason && j.reason !== 'None' ? j.reason : JOB_REASONS.scheduling,
      };
    // COMPLETING: Slurm settles the final state (OUT_OF_MEMORY after an OOM kill, say) once the
    // job's last processes are gone; until then it is not over.
    case 'RUNNING':
    case 'SUSPENDED':
    case 'COMPLETING':
      return { state: 'running', startedAt: startedAt ?? new Date() };
  }
  const ended = { state: 'exited' as const, finishedAt: at(j.endTime) ?? new Date(), startedAt };
  const code = exitCodeOf(j.exitCode);
  // slurmstepd marks an OOM kill with "signal" 125 (raw 253), also when the state says FAILED.
  const oomKilled = j.state === 'OUT_OF_MEMORY' || (j.exitCode & 0x7f) === OOM_MARK;
  switch (oomKilled ? 'OUT_OF_MEMORY' : j.state) {
    case 'OUT_OF_MEMORY':
      return {
        ...ended,
        exitCode: 137,
        reason: JOB_REASONS.oomKilled,
        message: `Killed: the job exceeded its memory limit of ${formatMemory(memory)}`,
      };
    case 'NODE_FAIL':
      return lostWithNode(j, ended, code || 137);
    case 'TIMEOUT':
    case 'DEADLINE':
      return {
        ...ended,
        exitCode: code || 143,
        reason: JOB_REASONS.lifeSpanEnded,
        message: 'Slurm ended the job at its time limit',
      };
    case 'BOOT_FAIL':
    case 'PREEMPTED':
      return {
        ...ended,
        exitCode: code || 137,
        reason: j.state === 'PREEMPTED' ? 'Preempted' : JOB_REASONS.containerCannotRun,
        message: `Slurm: ${j.state} ${j.reason}`.trim(),
      };
    case 'FAILED':
      // A failure before the script ran (e.g. JobLaunchFailure) leaves the exit code at 0.
      return code
        ? { ...ended, exitCode: code }
        : {
            ...ended,
            exitCode: 1,
            reason: JOB_REASONS.containerCannotRun,
            message: `Slurm: ${j.reason}`,
          };
    case 'CANCELLED':
      return { ...ended, exitCode: code || 143 };
    default:
      // COMPLETED.
      return { ...ended, exitCode: code };
  }
}

/**
 * Requeued by Slurm after its node failed, waiting to run again or cancelled by the driver since:
 * Orrery's restart policy, not Slurm's, decides whether a job runs twice.
 */
export const requeued = (j: SlurmJob) =>
  j.restarts > 0 && ['PENDING', 'REQUEUED', 'CONFIGURING', 'CANCELLED'].includes(j.state);

function lostWithNode(
  j: SlurmJob,
  ended: { finishedAt: Date; startedAt?: Date },
  exitCode: number,
): ObservedState {
  const node = j.batchHost ? ` ${j.batchHost}` : '';
  return {
    state: 'exited',
    ...ended,
    exitCode,
    reason: 'NodeFail',
    message: `The job was lost with its node${node}`,
  };
}
