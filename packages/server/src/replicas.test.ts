import pg from 'pg';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_REASONS } from '@orrery/contract';
import { engine, startTestServer, type TestServer, type TestUser } from './test/harness.js';
import { JOB_SCOPE, tenancy } from './test/fixtures.js';
import { logLines, spawnServer, type ServerProcess } from './test/server-process.js';
import { freePort } from './net/ports.js';
import { Browser } from './auth/oidc/testing/browser.js';
import { exchangeCode, refresh, startAuthorization, submit } from './auth/oidc/testing/flow.js';
import { LIMITS } from './auth/oidc/forms.js';
import { LOCK_NAMESPACES } from './db/advisory-locks.js';

/**
 * Two real `orrery serve` processes (the production build) on one PostgreSQL database and one
 * data directory, as two replicas behind a load balancer (docs/operations.md): whatever one does,
 * the other sees. The tenancy is made by an in-process server on the same database, stopped
 * before the replicas start.
 */
describe.skipIf(engine !== 'postgres')('two replicas on one PostgreSQL', () => {
  let seed: TestServer;
  let owner: TestUser;
  let a: ServerProcess;
  let b: ServerProcess;
  let publicUrl: string;

  const api = (p: ServerProcess, method: string, path: string, body?: unknown) =>
    fetch(`${p.url}${path}`, {
      method,
      headers: {
        ...owner.headers,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  const jobOn = async (p: ServerProcess, id: string) =>
    (await (await api(p, 'GET', `/api/v1/jobs/${id}`)).json()) as Record<string, unknown>;
  const statusOn = async (p: ServerProcess, id: string) =>
    ((await jobOn(p, id)).history as { status: string; reason: string | null }) ?? null;
  async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const v = await probe();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const createJob = async (p: ServerProcess, command: string) => {
    const res = await api(p, 'POST', '/api/v1/jobs?from_preset', {
      ...JOB_SCOPE,
      preset_name: 'cpu-small',
      image: 'busybox',
      command,
    });
    expect(res.status).toBe(202);
    return ((await res.json()) as { id: string }).id;
  };

  beforeAll(async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    // The load balancer's address: the issuer of every token, whichever replica signed it.
    publicUrl = `http://127.0.0.1:${portA}`;
    seed = await startTestServer({ ORRERY_PUBLIC_URL: publicUrl });
    ({ owner } = await tenancy(seed));
    await seed.halt();
    const env = {
      DATABASE_URL: seed.state.databaseUrl!,
      ORRERY_DATA_DIR: seed.state.dataDir,
      ORRERY_PUBLIC_URL: publicUrl,
      ORRERY_RUNTIME: 'process',
      ORRERY_ADMIN_PASSWORD: 'admin-password-1',
      HOST: '127.0.0.1',
      // No status socket reads its job again on its own within the test: what ends one is an event.
      ORRERY_JOB_STATUS_RECHECK: '1d',
    };
    // Started together: one applies the migrations while the other waits for it.
    [a, b] = await Promise.all([
      spawnServer({ ...env, PORT: String(portA) }),
      spawnServer({ ...env, PORT: String(portB) }),
    ]);
  }, 400_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await seed?.stop();
  }, 60_000);

  it('a job created through one replica is seen, followed and killed through the other', async () => {
    const id = await createJob(a, "sh -c 'echo hello from replica A; sleep 600'");
    expect((await jobOn(b, id)).id).toBe(id);
    await until(
      'the job running, seen on B',
      async () => (await jobOn(b, id)).status === 'running',
    );

    // Its log through B, while it runs (the stream follows it).
    const log = await fetch(`${b.url}/api/v1/jobs/${id}/log`, { headers: owner.headers });
    expect(log.status).toBe(200);
    const reader = log.body!.getReader();
    let text = '';
    while (!text.includes('hello from replica A')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
    }
    await reader.cancel();
    expect(text).toContain('hello from replica A');

    // A's status socket (attach) ends with the exit frame when B kills the job: B's event
    // reaches A through LISTEN/NOTIFY (A's own recheck is a day away).
    const socket = new WebSocket(`${a.url.replace('http', 'ws')}/api/v1/jobs/${id}/attach`, {
      headers: owner.headers,
    });
    const exitFrame = new Promise<Buffer>((resolve, reject) => {
      socket.on('message', (d: Buffer) => d[0] === 3 && resolve(d));
      socket.on('error', reject);
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    expect((await api(b, 'POST', `/api/v1/jobs/${id}/kill`)).status).toBe(204);
    expect(JSON.parse((await exitFrame).subarray(1).toString())).toHaveProperty('exit_code');
    socket.close();
    const seen = await jobOn(a, id);
    expect(seen.status).toBe('cancelled');
    expect(await statusOn(a, id)).toMatchObject({ reason: JOB_REASONS.userRequested });
  });

  it('shares the sign-in rate limit: hits on both replicas count together', async () => {
    const email = `limited-${Date.now()}@example.test`;
    const attempt = (p: ServerProcess) =>
      fetch(`${p.url}/oidc/interaction/no-such-interaction/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password: 'wrong password' }).toString(),
        redirect: 'manual',
      });
    // Half the allowance on each replica: each alone would still let the next one through.
    for (let i = 0; i < LIMITS.signIn.max; i++) {
      expect((await attempt(i % 2 ? b : a)).status).not.toBe(429);
    }
    expect((await attempt(b)).status).toBe(429);
    expect((await attempt(a)).status).toBe(429);
  });

  it('a session made on one replica works on the other', async () => {
    // Sign in on A: the provider's session cookie, and an authorization code.
    const onA = await startAuthorization({ url: a.url, config: seed.config });
    const { code } = await submit(onA, { email: owner.email, password: owner.password });
    expect(code).toBeTruthy();
    // The code A issued is redeemed on B, and the refresh token B hands out works on A.
    const tokens = await exchangeCode({ url: b.url, config: seed.config }, onA, code!);
    expect(tokens.status).toBe(200);
    const refreshed = await refresh(
      { url: a.url, config: seed.config },
      String(tokens.body.refresh_token),
    );
    expect(refreshed.status).toBe(200);
    // A's session cookie on B: authorized at once, without the sign-in page.
    const onB = new Browser(b.url);
    for (const [k, v] of onA.browser.cookies) onB.cookies.set(k, v);
    const again = await startAuthorization(
      { url: b.url, config: seed.config },
      { browser: onB, redirectUri: `${publicUrl}/auth/callback` },
    );
    const callback = new URL(again.page.headers.get('location') ?? '', publicUrl);
    expect(callback.pathname).toBe('/auth/callback');
    expect(callback.searchParams.get('code')).toBeTruthy();
    // And the API accepts the token on either replica.
    for (const p of [a, b]) {
      const res = await fetch(`${p.url}/api/v1/config`, {
        headers: { authorization: `Bearer ${String(refreshed.body.access_token)}` },
      });
      expect(((await res.json()) as { authorized: boolean }).authorized).toBe(true);
    }
  });

  it('runs each background loop on one replica, and the other takes over when it stops', async () => {
    const leads = (p: ServerProcess) =>
      logLines(p, 'leading a background loop').map((l) => String(l.loop));
    await until('a leader of the jobs loop', async () =>
      [...leads(a), ...leads(b)].includes('jobs'),
    );
    // Each loop's lock is held by one session: one replica runs it.
    const db = new pg.Client({ connectionString: seed.state.databaseUrl });
    await db.connect();
    try {
      const holders = await db.query<{ objid: string; n: number }>(
        `select objid, count(distinct pid)::int as n from pg_locks
          where locktype = 'advisory' and classid = $1
            and database = (select oid from pg_database where datname = current_database())
          group by objid`,
        [LOCK_NAMESPACES.loops],
      );
      expect(holders.rows.length).toBeGreaterThan(0);
      expect(holders.rows.every((r) => r.n === 1)).toBe(true);
    } finally {
      await db.end();
    }
    const leader = leads(a).includes('jobs') ? a : b;
    const other = leader === a ? b : a;
    expect(leads(other)).not.toContain('jobs');
    // The leader stops (as an orchestrator replaces it): the other takes its loops over, and
    // schedules a job created through it.
    await leader.stop();
    await until('the other replica leading the jobs loop', async () =>
      leads(other).includes('jobs'),
    );
    const id = await createJob(other, "sh -c 'echo after the takeover'");
    await until('the job finished on the remaining replica', async () =>
      ['succeeded', 'failed'].includes(String((await jobOn(other, id)).status)),
    );
    expect((await jobOn(other, id)).status).toBe('succeeded');
  });
});
