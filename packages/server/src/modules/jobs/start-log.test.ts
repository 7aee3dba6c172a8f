import { afterAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

let s: TestServer | undefined;
afterAll(() => s?.stop());

/**
 * A start that waits on the runtime says so first: one that times out (a Slurm cluster slow to
 * answer, many jobs to stop) then explains itself in the log.
 */
it("says in its log, before the start's wait on the runtime, what it waits for", async () => {
  const lines: string[] = [];
  s = await startTestServer(
    { ORRERY_RUNTIME: 'process' },
    { logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } },
  );
  await s.app.ready();
  const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
  const waiting = messages.findIndex((m) => /^Waiting for the process runtime/.test(m));
  expect(waiting, messages.join('\n')).toBeGreaterThanOrEqual(0);
});
