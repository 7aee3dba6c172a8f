import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `task` now and every `everyMs`, one run at a time (a slow run delays the next instead of
 * overlapping it); a failure is logged and the next run tries again. Returns a stop that waits
 * for the run under way.
 */
export function runEvery(
  task: () => Promise<unknown>,
  everyMs: number,
  log: FastifyBaseLogger,
  what: string,
) {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = running.then(task).catch((e: unknown) => log.error({ err: e }, `${what} failed`));
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
