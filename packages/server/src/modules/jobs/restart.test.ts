import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';

/**
 * A server restart loses and duplicates no job: jobs keep running while the server is
 * down, and the new server's service reconciles its records with the runtime.
 */
describe('jobs across a server restart', () => {
  let second: TestServer | undefined;
  afterAll(() => second?.stop());

  it('finds a job that finished while the server was down, and one still running', async () => {
    const first = await startTestServer({ ORRERY_RUNTIME: 'process' }, { persistent: true });
    const { owner } = await tenancy(first);
    const body = (command: string) => ({
      cluster_name: 'default',
      org_name: 'acme',
      project_name: 'vision',
      preset_name: 'cpu-small',
      image: 'busybox',
      command,
    });
    const quick = await call(
      first,
      'POST',
      '/api/v1/jobs?from_preset',
      owner,
      body('sleep 0.5; echo quick'),
    );
    const slow = await call(first, 'POST', '/api/v1/jobs?from_preset', owner, body('sleep 30'));
    const get = (s: TestServer, id: string) => call(s, 'GET', `/api/v1/jobs/${id}`, owner);
    for (let i = 0; i < 200; i++) {
      const [a, b] = [await get(first, quick.body.id), await get(first, slow.body.id)];
      if (a.body.status === 'running' && b.body.status === 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await first.halt();
    // The quick job ends while nobody watches: its wrapper records its exit in its directory
    // (gone already if it ended before the halt: the server let go of it then).
    const dir = join(first.state.dataDir, 'jobs', quick.body.id);
    const ended = () => existsSync(join(dir, 'exit')) || !existsSync(dir);
    await vi.waitFor(() => expect(ended()).toBe(true), { timeout: 20_000 });

    second = await startTestServer({ ORRERY_RUNTIME: 'process' }, { restartOf: first.state });
    const quickAfter = await vi.waitFor(
      async () => {
        const q = await get(second!, quick.body.id);
        expect(q.body.status).toBe('succeeded');
        return q;
      },
      { timeout: 10_000 },
    );
    expect(quickAfter.body).toMatchObject({ status: 'succeeded', history: { exit_code: 0 } });
    const slowAfter = await get(second, slow.body.id);
    expect(slowAfter.body.status).toBe('running');
    expect(
      slowAfter.body.statuses.filter((s: { status: string }) => s.status === 'running'),
    ).toHaveLength(1);
    const all = await call(second, 'GET', '/api/v1/jobs', owner);
    expect(all.body.jobs).toHaveLength(2);
    const log = await second.app.inject({
      method: 'GET',
      url: `/api/v1/jobs/${quick.body.id}/log`,
      headers: owner.headers,
    });
    expect(log.body).toContain('quick');
    await call(second, 'DELETE', `/api/v1/jobs/${slow.body.id}`, owner);
  }, 90_000); // two starts on an on-disk database
});
