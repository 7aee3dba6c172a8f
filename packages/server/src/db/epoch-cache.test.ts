import { describe, expect, it } from 'vitest';
import { engine, type TestServer, type TestUser } from '../test/harness.js';
import { call, twoReplicas, tenantServer } from '../test/fixtures.js';

/**
 * Lists shared between requests for an epoch (epoch-cache.ts): each test lists first, so the
 * list is in the cache, then changes what it lists and expects the very next listing to show it.
 */
const SCOPE = 'cluster_name=default&org_name=acme&project_name=vision';
const SECRETS = `/api/v1/secrets?${SCOPE}`;
const PAGE = `/api/v1/jobs?${SCOPE}&reverse=1&limit=50`;
const secret = (key: string) => ({
  org_name: 'acme',
  project_name: 'vision',
  key,
  value: Buffer.from('v').toString('base64'),
});
const keys = (body: { key: string }[]) => body.map((s) => s.key);

describe('lists shared between requests', () => {
  let s: TestServer;
  let owner: TestUser;
  tenantServer((x) => ({ s, owner } = x), { ORRERY_RUNTIME: 'process' });

  it('lists a secret created or deleted since the last listing', async () => {
    expect(keys((await call(s, 'GET', SECRETS, owner)).body)).toEqual([]);
    expect((await call(s, 'POST', '/api/v1/secrets', owner, secret('TOKEN'))).status).toBe(201);
    expect(keys((await call(s, 'GET', SECRETS, owner)).body)).toEqual(['TOKEN']);
    const removed = await call(s, 'DELETE', `/api/v1/secrets/TOKEN?${SCOPE}`, owner);
    expect(removed.status).toBe(204);
    expect(keys((await call(s, 'GET', SECRETS, owner)).body)).toEqual([]);
  });

  it('shows a new job and each status it reaches on the jobs page', async () => {
    expect((await call(s, 'GET', PAGE, owner)).body.jobs).toEqual([]);
    const created = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, {
      cluster_name: 'default',
      org_name: 'acme',
      project_name: 'vision',
      preset_name: 'cpu-small',
      image: 'busybox:latest',
      command: 'echo done',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const id = created.body.id as string;
    expect((await call(s, 'GET', PAGE, owner)).body.jobs.map((j: { id: string }) => j.id)).toEqual([
      id,
    ]);
    // Whatever status the job page reports, the list reports too at the next request.
    for (let i = 0; i < 300; i++) {
      const one = (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body;
      const listed = (await call(s, 'GET', PAGE, owner)).body.jobs[0];
      if (listed.status === one.status) {
        expect(listed.history.transition_time).toBe(one.history.transition_time);
      } else {
        // The job moved between the two requests: the single job is read again, after the list.
        const again = (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body;
        expect(again.status).not.toBe(one.status);
      }
      if (one.status === 'succeeded') return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`job ${id} never succeeded`);
  });
});

describe.skipIf(engine !== 'postgres')('lists shared between requests, on two replicas', () => {
  const r = twoReplicas();

  it('lists on replica B a secret created through replica A', async () => {
    expect(keys((await call(r.b, 'GET', SECRETS, r.owner)).body)).toEqual([]);
    expect((await call(r.a, 'POST', '/api/v1/secrets', r.owner, secret('FROM_A'))).status).toBe(
      201,
    );
    expect(keys((await call(r.b, 'GET', SECRETS, r.owner)).body)).toEqual(['FROM_A']);
  });
});
