import { rmSync } from 'node:fs';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { call, submitJob, tenancy } from '../test/fixtures.js';
import { apoloOf, describeClients } from '../test/apolo-cli.js';
import { slurmServerEnv, testCluster } from '../test/slurm-cluster.js';

/** Every frame of an attach socket, and how it closed. */
function attach(s: TestServer, who: TestUser, id: string, query: string) {
  const ws = new WebSocket(
    `${s.url.replace('http', 'ws')}/api/v1/jobs/${id}/attach?${query}`,
    ['v2.channels.neu.ro'],
    { headers: who.headers },
  );
  return new Promise<{ frames: Buffer[]; code: number }>((resolve, reject) => {
    const frames: Buffer[] = [];
    ws.on('message', (d: Buffer) => frames.push(d));
    ws.on('close', (code) => resolve({ frames, code }));
    ws.on('error', reject);
  });
}
const exitFrames = (frames: Buffer[]) =>
  frames.filter((f) => f[0] === 3).map((f) => JSON.parse(f.subarray(1).toString()) as unknown);

/**
 * The official `apolo` CLI's `run` on the slurm runtime, on the private cluster of
 * scripts/slurm.mjs, and the attach socket as it uses it: the output once, the job's exit code,
 * no reconnection; each attach ends with the exit code, once.
 */
describeClients('the official apolo CLI on Slurm', () => {
  let s: TestServer;
  let owner: TestUser;
  let shared = '';
  beforeAll(async () => {
    if (!testCluster) return;
    const c = slurmServerEnv(testCluster, 'cli');
    shared = c.shared;
    s = await startTestServer(c.env, { listen: true });
    owner = (await tenancy(s)).owner;
  }, 300_000);
  afterAll(async () => {
    await s?.stop();
    if (shared) rmSync(shared, { recursive: true, force: true });
  });
  const apolo = apoloOf(
    () => s,
    () => owner,
  );

  it.skipIf(!testCluster)('run prints the output once and exits with its code', async () => {
    const r = await apolo.run(['run', '--preset', 'cpu-small', 'debian:12', '--', 'echo', 'hi']);
    expect(r.stdout.match(/^hi$/gm), r.stdout + r.stderr).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toMatch(/Connection lost/);
    expect(r.code).toBe(0);
  });

  it.skipIf(!testCluster)(
    'attach, as the CLI opens it while the job runs and again after, ends with the exit code once',
    async () => {
      const id = await submitJob(s, owner, 'sh -c "sleep 2; exit 3"');
      await vi.waitFor(
        async () =>
          expect((await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body.status).toBe('running'),
        { timeout: 30_000 },
      );
      const live = await attach(s, owner, id, 'tty=0&stdin=1&stdout=1&stderr=1');
      expect(exitFrames(live.frames)).toEqual([{ exit_code: 3 }]);
      expect(live.code).toBe(1000);
      // The CLI's check that the job is gone: a stdin-only attach.
      const again = await attach(s, owner, id, 'tty=0&stdin=1&stdout=0&stderr=0');
      expect(exitFrames(again.frames)).toEqual([{ exit_code: 3 }]);
      expect(again.code).toBe(1000);
    },
  );
});
