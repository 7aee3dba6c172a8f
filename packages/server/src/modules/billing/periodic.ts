import type { FastifyBaseLogger } from 'fastify';
import { whileLeading, type AdvisoryLocks } from '../../db/advisory-locks.js';

/** Where a loop runs: the log of its failures, and the locks that keep it on one replica. */
export interface LoopHost {
  log: FastifyBaseLogger;
  locks: AdvisoryLocks;
}

/**
 * Runs `task` now and every `everyMs`, one run at a time (a slow run delays the next instead of
 * overlapping it), on the one replica leading loop `what`; a failure is logged and the next run
 * tries again. Returns a stop that waits for the run under way. `Infinity` never runs it: the
 * tests that call the task themselves, with nothing of the loop's racing their assertions.
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
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
