import type { FastifyBaseLogger } from 'fastify';
import { whileLeading, type AdvisoryLocks } from '../../db/advisory-locks.js';

/** Where a loop runs: the log of its failures, and the locks that keep it on one replica. */
export interface LoopHost {
  log: FastifyBaseLogger;
  locks: AdvisoryLocks;
}

/**
 * How long after the server is ready a loop first runs: its first pass (a probe of the machine's
 * GPUs, walks of the storage, queries) took a tenth of a start when run before the server
 * answered, and none of it is needed to serve the first requests.
 */
export const FIRST_RUN_AFTER_MS = 2_000;

/**
 * Runs `task` just after the start (FIRST_RUN_AFTER_MS) and then every `everyMs`, one run at a
 * time (a slow run delays the next instead of overlapping it), on the one replica leading loop
 * `what`; a failure is logged and the next run tries again. Returns a stop that waits for the run
 * under way. `Infinity` never runs it: the tests that call the task themselves, with nothing of
 * the loop's racing their assertions.
 */
export function runEvery(
  task: () => Promise<unknown>,
  everyMs: number,
  { log, locks }: LoopHost,
  what: string,
) {
  if (everyMs === Infinity) return async () => undefined;
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = running
      .then(() => whileLeading(locks, what, task))
      .catch((e: unknown) => log.error({ err: e }, `${what} failed`));
  };
  let timer: NodeJS.Timeout = setTimeout(() => {
    run();
    timer = setInterval(run, everyMs);
    timer.unref();
  }, FIRST_RUN_AFTER_MS);
  timer.unref();
  return async () => {
    // The first run's timeout, or the interval after it: clearTimeout ends either.
    clearTimeout(timer);
    await running;
  };
}
