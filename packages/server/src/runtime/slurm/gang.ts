import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readNumber } from '../process/exit.js';
import { GANG_FILES, WORKER_ENDED, workerDir } from './gang-script.js';
import { ENTER_FILE, RUN_DIR } from './mpi.js';
import { JOB_FILES } from './script.js';

/**
 * A gang's state from its workers' files (gang-script.ts): each worker's `started` and `exit` in
 * its directory `w<rank>/` of the job's.
 */

/** What remove() takes from each worker's directory: all but its log. */
const WORKER_STATE = [
  'tmp',
  'hosts',
  'sandbox.json',
  'release',
  'output',
  'slirp.sock',
  'slirp.ready',
  'net.log',
  JOB_FILES.exit,
  WORKER_ENDED,
  JOB_FILES.started,
  JOB_FILES.stats,
  JOB_FILES.node,
  RUN_DIR,
];

const ranks = (workers: number) => [...Array(workers).keys()];

/** What the driver's remove() takes from a job's directory: all but its output and its index. */
const JOB_STATE = [
  'job.json',
  'job.sh',
  'etc',
  'tmp',
  'secrets',
  'release',
  'sandbox.json',
  'pasta.pid',
  'net.log',
];

/**
 * What remove() takes of a job, with its gang of `workers` (none: not a gang): all but the logs,
 * which logs() reads after the job is gone.
 */
export function stateFiles(workers: number): string[] {
  const own = ranks(workers).flatMap((r) => WORKER_STATE.map((f) => join(workerDir(r), f)));
  const gang = workers ? [...own, ...Object.values(GANG_FILES), ENTER_FILE] : [];
  return [...JOB_STATE, ...Object.values(JOB_FILES), ...gang];
}

/** When the last worker's command started, once every worker's has; null before. */
export async function gangStarted(dir: string, workers: number): Promise<Date | null> {
  const starts = await Promise.all(
    ranks(workers).map((r) => stat(join(dir, workerDir(r), JOB_FILES.started)).catch(() => null)),
  );
  if (starts.some((s) => !s)) return null;
  return new Date(Math.max(...starts.map((s) => s!.mtime.getTime())));
}

/**
 * How the gang ended, once its batch script has (its `exit`, read by the caller): the first worker
 * that failed, with its code and why the others stopped, or 0 when every worker exited with 0.
 * A worker that wrote no exit was stopped with the step (srun's kill-on-bad-exit).
 */
export async function gangExit(
  dir: string,
  workers: number,
): Promise<{ code: number; at?: Date; message?: string } | null> {
  const exits = await Promise.all(
    ranks(workers).map((r) => readNumber(join(dir, workerDir(r), JOB_FILES.exit))),
  );
  const failures = exits
    .flatMap((e, rank) => (e && e.value !== 0 ? [{ rank, code: e.value, at: e.mtime }] : []))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const first = failures[0];
  if (first) {
    return {
      code: first.code,
      at: new Date(Math.max(...exits.map((e) => e?.mtime.getTime() ?? 0))),
      message: `Worker ${first.rank} of ${workers} exited with code ${first.code}; the other workers were stopped`,
    };
  }
  if (exits.every((e) => e?.value === 0)) {
    return { code: 0, at: new Date(Math.max(...exits.map((e) => e!.mtime.getTime()))) };
  }
  return null;
}
