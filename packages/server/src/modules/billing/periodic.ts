import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `task` now and every `everyMs`, one run at a time (a slow run delays the next, never
 * overlaps it); a failure is logged and the next run goes on. Returns a stop that waits for the
 * run under way.
 */
export function startPeriodic(
  task: () => Promise<unknown>,
  everyMs: number,
  log: FastifyBaseLogger,
  failure: string,
) {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = running.then(task).catch((e: unknown) => log.error({ err: e }, failure));
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
