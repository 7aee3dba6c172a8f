import { and, eq } from 'drizzle-orm';
import { WebSocket } from 'ws';
import { describe, expect, it, vi } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, ndjson, projectMember, processServer } from '../../test/fixtures.js';
import { clusterOrgs, jobs, organizations, usageRecords } from '../../db/schema.js';
import { creditLedger } from '../billing/tables.js';
import { injectAt, openJob, whenServing } from '../../test/ingress.js';
import { NO_SUCH_JOB } from './routes-ingress.js';

const SCOPE = { cluster_name: 'default', org_name: 'acme', project_name: 'vision' };
const NODE = process.execPath;

/** The body `apolo run` sends, with a command of our own. */
const cliBody = (command: string, extra: Record<string, unknown> = {}) => ({
  pass_config: false,
  ...SCOPE,
  preset_name: 'cpu-small',
  image: 'busybox:latest',
  resources: { shm: true },
  command,
  ...extra,
});

describe('jobs on the process runtime', () => {
  let s: TestServer;
  let owner: TestUser;

  const run = async (who: TestUser, command: string, extra: Record<string, unknown> = {}) => {
    const r = await call(s, 'POST', '/api/v1/jobs?from_preset', who, cliBody(command, extra));
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return r.body as {
      id: string;
      status: string;
      container: { resources: { cpu: number; memory: number } };
    };
  };
  const get = async (id: string, who: TestUser = owner) =>
    (await call(s, 'GET', `/api/v1/jobs/${id}`, who)).body;
  /** Polls until the job reaches one of `statuses` (each step is one GET, as the CLI does). */
  const until = async (id: string, statuses: string[], who: TestUser = owner) => {
    for (let i = 0; i < 300; i++) {
      const j = await get(id, who);
      if (statuses.includes(j.status)) return j;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(
      `job ${id} never reached ${statuses.join('/')}: ${JSON.stringify(await get(id, who))}`,
    );
  };

  processServer((x) => ({ s, owner } = x));

  it('runs a job from the CLI body to succeeded, with the history the CLI asserts', async () => {
    const created = await run(owner, 'echo hello from $HOME; echo second line', {
      name: 'greeter',
      tags: ['exp-1', 'cpu'],
      description: 'says hello',
    });
    expect(created).toMatchObject({
      status: 'pending',
      owner: owner.username,
      name: 'greeter',
      preset_name: 'cpu-small',
      tags: ['exp-1', 'cpu'],
      uri: `job://default/acme/vision/${created.id}`,
      history: { status: 'pending', reason: 'Creating' },
      container: { image: 'busybox:latest', command: 'echo hello from $HOME; echo second line' },
      runtime: 'process',
      max_run_time_minutes: 1440,
    });
    expect(created.id).toMatch(/^job-[0-9a-f-]{36}$/);
    const done = await until(created.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    expect(done.history).toMatchObject({ status: 'succeeded', exit_code: 0, reason: 'Completed' });
    expect(done.history.started_at).toBeTruthy();
    expect(done.history.finished_at).toBeTruthy();
    expect(done.statuses.map((x: { status: string }) => x.status)).toEqual([
      'pending',
      'pending',
      'running',
      'succeeded',
    ]);
    const log = await s.app.inject({
      method: 'GET',
      url: `/api/v1/jobs/${created.id}/log`,
      headers: owner.headers,
    });
    expect(log.statusCode).toBe(200);
    expect(log.headers['content-type']).toContain('text/plain');
    expect(log.body).toContain('second line');
  });

  it('records a failing command as failed with its exit code', async () => {
    const j = await run(owner, 'echo boom >&2; exit 3');
    const done = await until(j.id, ['succeeded', 'failed']);
    expect(done).toMatchObject({ status: 'failed', history: { exit_code: 3, reason: 'Error' } });
  });

  it('refuses bad input with the field that is wrong', async () => {
    const bad = async (extra: Record<string, unknown>, path: string) => {
      const r = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, cliBody('true', extra));
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    };
    await bad({ name: 'Bad_Name' }, 'name');
    await bad({ tags: ['has space'] }, 'tags.0');
    await bad({ schedule_timeout: 0 }, 'schedule_timeout');
    await bad({ working_dir: 'relative/dir' }, 'working_dir');
    await bad({ preset_name: 'no-such-preset' }, 'preset_name');
    await bad({ resources: { shm: true, cpu: 4 } }, 'resources');
    await bad({ image: '' }, 'image');
    await bad({ http: { port: 70000 } }, 'http.port');
    await bad(
      { volumes: [{ src_storage_uri: 'disk:x', dst_path: '/data' }] },
      'volumes.0.src_storage_uri',
    );
    const nested = await call(s, 'POST', '/api/v1/jobs', owner, {
      ...SCOPE,
      container: { image: 'x', resources: { cpu: 0.01, memory: 2 ** 30 } },
    });
    expect(nested.status).toBe(400);
    expect(nested.body.errors[0].path).toBe('container.resources.cpu');
  });

  it('lists with the CLI filters, as JSON and NDJSON, and pages with a cursor', async () => {
    const tagged = await run(owner, 'true', { tags: ['list-me'], name: 'lister' });
    await until(tagged.id, ['succeeded']);
    const q = (query: string) => call(s, 'GET', `/api/v1/jobs?${query}`, owner);
    const byTag = await q('tag=list-me');
    expect(byTag.body.jobs.map((j: { id: string }) => j.id)).toEqual([tagged.id]);
    expect((await q('name=lister&status=succeeded')).body.jobs).toHaveLength(1);
    expect((await q('name=lister&status=running')).body.jobs).toHaveLength(0);
    expect((await q(`q=LISTE`)).body.jobs.map((j: { id: string }) => j.id)).toEqual([tagged.id]);
    expect((await q(`q=%25`)).body.jobs).toHaveLength(0); // a literal %, not a wildcard
    const all = (await q('org_name=acme&project_name=vision')).body.jobs as { id: string }[];
    const newestFirst = (await q('reverse=1&limit=2')).body.jobs as { id: string }[];
    expect(newestFirst.map((j) => j.id)).toEqual(
      all
        .slice(-2)
        .reverse()
        .map((j) => j.id),
    );
    const next = (await q(`reverse=1&limit=2&cursor=${newestFirst[1]!.id}`)).body.jobs;
    expect(next[0].id).toBe(all.at(-3)!.id);
    const nd = await ndjson(s, '/api/v1/jobs?tag=list-me', owner);
    expect(nd.type).toContain('application/x-ndjson');
    expect(nd.items.map((j) => j.id)).toEqual([tagged.id]);
  });

  it('kills a running job: cancelled, reason UserRequested, no process left', async () => {
    const j = await run(owner, 'sleep 60');
    await until(j.id, ['running']);
    const r = await call(s, 'DELETE', `/api/v1/jobs/${j.id}`, owner);
    expect(r.status).toBe(204);
    const killed = await get(j.id);
    expect(killed).toMatchObject({ status: 'cancelled', history: { reason: 'UserRequested' } });
    // A second kill of a finished job changes nothing.
    expect((await call(s, 'DELETE', `/api/v1/jobs/${j.id}`, owner)).status).toBe(204);
    expect((await get(j.id)).history.reason).toBe('UserRequested');
  });

  it('gates by the permission engine: readers read, strangers see nothing, shares open one job', async () => {
    const j = await run(owner, 'sleep 30');
    const reader = await projectMember(s, 'reader');
    const stranger = await s.user();
    expect((await call(s, 'GET', `/api/v1/jobs/${j.id}`, reader)).status).toBe(200);
    expect((await call(s, 'DELETE', `/api/v1/jobs/${j.id}`, reader)).status).toBe(403);
    expect(
      (await call(s, 'POST', '/api/v1/jobs?from_preset', reader, cliBody('true'))).status,
    ).toBe(403);
    const hidden = await call(s, 'GET', `/api/v1/jobs/${j.id}`, stranger);
    expect(hidden.status).toBe(404);
    // Another's job reads exactly as one that does not exist: nothing tells that it does.
    const missingId = `job-${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`;
    const missing = await call(s, 'GET', `/api/v1/jobs/${missingId}`, stranger);
    expect(hidden.body.message).toBe(missing.body.message.replace(missingId, j.id));
    expect((await call(s, 'DELETE', `/api/v1/jobs/${j.id}`, stranger)).status).toBe(404);
    expect((await call(s, 'GET', '/api/v1/jobs', stranger)).body.jobs).toEqual([]);
    expect((await call(s, 'GET', `/api/v1/jobs/${j.id}`, null)).status).toBe(401);
    const share = await call(s, 'POST', `/api/v1/users/${stranger.username}/permissions`, owner, [
      { uri: `job://default/acme/vision/${j.id}`, action: 'read' },
    ]);
    expect(share.status).toBeLessThan(300);
    expect((await call(s, 'GET', `/api/v1/jobs/${j.id}`, stranger)).status).toBe(200);
    const listed = (await call(s, 'GET', '/api/v1/jobs', stranger)).body.jobs;
    expect(listed.map((x: { id: string }) => x.id)).toEqual([j.id]);
    await call(s, 'DELETE', `/api/v1/jobs/${j.id}`, owner);
  });

  it('refuses a job when the organization has no credits, and charges running time', async () => {
    await s.ctx.db
      .update(organizations)
      .set({ credits: '0' })
      .where(eq(organizations.name, 'acme'));
    const refused = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, cliBody('true'));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('No credits left for organization acme');

    await s.ctx.db
      .update(organizations)
      .set({ credits: '100' })
      .where(eq(organizations.name, 'acme'));
    const j = await run(owner, 'sleep 1.2', { preset_name: 'cpu-large' });
    const done = await until(j.id, ['succeeded']);
    expect(Number(done.total_price_credits)).toBeGreaterThan(0);
    const usage = await s.ctx.db
      .select()
      .from(usageRecords)
      .where(eq(usageRecords.resourceUri, done.uri));
    expect(usage.length).toBeGreaterThan(0);
    expect(usage.every((u) => u.category === 'jobs' && u.orgName === 'acme')).toBe(true);
    const charged = usage.reduce((n, u) => n + Number(u.credits), 0);
    expect(charged).toBeCloseTo(Number(done.total_price_credits), 3);
    const [org] = await s.ctx.db.select().from(organizations).where(eq(organizations.name, 'acme'));
    expect(Number(org!.credits)).toBeCloseTo(100 - charged, 3);
    // Each charge is a usage row of the organization's ledger, naming the job.
    const ledger = await s.ctx.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.reference, done.uri));
    expect(ledger.every((r) => r.kind === 'usage')).toBe(true);
    expect(ledger.reduce((n, r) => n + Number(r.credits), 0)).toBeCloseTo(-charged, 3);
    await s.ctx.db
      .update(organizations)
      .set({ credits: null })
      .where(eq(organizations.name, 'acme'));
  });

  it('holds the jobs quota: refused without waiting, pending with QuotaExhausted when waiting', async () => {
    const first = await run(owner, 'sleep 30');
    await until(first.id, ['running']);
    const running = (await call(s, 'GET', '/api/v1/jobs?status=running', owner)).body.jobs.length;
    await s.ctx.db
      .update(clusterOrgs)
      .set({ quotaTotalRunningJobs: running })
      .where(and(eq(clusterOrgs.clusterName, 'default'), eq(clusterOrgs.orgName, 'acme')));
    try {
      const refused = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, cliBody('true'));
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/quota/i);
      const waiting = await run(owner, 'echo waited', { wait_for_jobs_quota: true });
      // Pending from the start; the scheduler then says why.
      const pending = await vi.waitFor(
        async () => {
          const p = await get(waiting.id);
          expect(p.history.reason).toBe('QuotaExhausted');
          return p;
        },
        { timeout: 10_000 },
      );
      expect(pending).toMatchObject({
        status: 'pending',
        history: { reason: 'QuotaExhausted' },
      });
      await call(s, 'DELETE', `/api/v1/jobs/${first.id}`, owner);
      expect((await until(waiting.id, ['succeeded'])).status).toBe('succeeded');
    } finally {
      await s.ctx.db
        .update(clusterOrgs)
        .set({ quotaTotalRunningJobs: null })
        .where(eq(clusterOrgs.orgName, 'acme'));
    }
  });

  it('ends a job that outlives its maximum run time with LifeSpanEnded', async () => {
    const j = await run(owner, 'sleep 60', { max_run_time_minutes: 1 });
    await until(j.id, ['running']);
    // Pretend it started two minutes ago rather than waiting a minute.
    await s.ctx.db
      .update(jobs)
      .set({ startedAt: new Date(Date.now() - 120_000) })
      .where(eq(jobs.id, j.id));
    const ended = await until(j.id, ['cancelled']);
    expect(ended.history.reason).toBe('LifeSpanEnded');
  });

  it('serves the job HTTP port at its own host, asking for a token when required', async () => {
    const server = `${NODE} -e "require('http').createServer((q,s)=>s.end('job says '+q.url)).listen(process.env.PORT,'127.0.0.1')"`;
    const j = await run(owner, server, { http: { port: 8080, requires_auth: true } });
    const running = await until(j.id, ['running']);
    expect(running.http_url).toBe(`http://${j.id}.jobs.localhost:${new URL(s.url).port}/`);
    const url = `${running.http_url}hello?x=1`;
    const answer = await whenServing(() => injectAt(s, url, { headers: owner.headers }));
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('job says /hello?x=1');
    expect((await injectAt(s, url)).statusCode).toBe(401);
    // Another tenant's user reads it as a job that does not exist.
    const stranger = await s.user();
    const refused = await injectAt(s, url, { headers: stranger.headers });
    expect([refused.statusCode, refused.body]).toEqual([404, NO_SUCH_JOB]);
    // The console's Open: a ticket, exchanged once for a cookie of the job's host.
    const { cookie, location } = await openJob(s, owner, j.id);
    expect(location).toBe('/');
    const viaCookie = await injectAt(s, url, { headers: { cookie } });
    expect(viaCookie.body).toBe('job says /hello?x=1');
    await call(s, 'DELETE', `/api/v1/jobs/${j.id}`, owner);
  });

  it('serves a named job at its name-based host, following the name to its live run', async () => {
    const server = `${NODE} -e "require('http').createServer((q,s)=>s.end(process.env.RUN+' '+q.url)).listen(process.env.PORT,'127.0.0.1')"`;
    const start = async (runName: string) => {
      const j = await run(owner, server, {
        name: 'named-web',
        http: { port: 8080, requires_auth: true },
        env: { RUN: runName },
      });
      return until(j.id, ['running']);
    };
    const reach = (url: string, headers: Record<string, string> = owner.headers) =>
      whenServing(() => injectAt(s, url, { headers }));
    const first = await start('first');
    const port = new URL(s.url).port;
    const named = `http://named-web--${first.project_name}--${first.org_name}.jobs.localhost:${port}/`;
    expect(first.http_url_named).toBe(named);
    expect(first.http_url).toBe(`http://${first.id}.jobs.localhost:${port}/`);
    const answer = await reach(`${named}page?a=1`);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('first /page?a=1');
    // No token, another user: no such job, as for a name that does not exist.
    expect((await injectAt(s, named)).statusCode).toBe(404);
    const stranger = await s.user();
    expect((await reach(named, stranger.headers)).statusCode).toBe(404);
    // The next run of the name answers at the same URL.
    await call(s, 'DELETE', `/api/v1/jobs/${first.id}`, owner);
    await until(first.id, ['cancelled']);
    const second = await start('second');
    expect((await reach(named)).body).toBe('second /');
    // Unknown names and places are no job; an unnamed job has no name-based URL.
    expect((await reach(named.replace('--vision--', '--nowhere--'))).statusCode).toBe(404);
    expect((await reach(`http://other--x.jobs.localhost:${port}/`)).statusCode).toBe(404);
    await call(s, 'DELETE', `/api/v1/jobs/${second.id}`, owner);
  });

  it('streams live samples over the top WebSocket with the bearer sub-protocol', async () => {
    const j = await run(owner, `${NODE} -e "setInterval(()=>{},1000)"`);
    await until(j.id, ['running']);
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/v1/jobs/${j.id}/top`, [
      'top.apolo.us',
      `bearer.${owner.token}`,
    ]);
    const sample = await new Promise<Record<string, number>>((resolve, reject) => {
      ws.on('message', (data) => resolve(JSON.parse(String(data))));
      ws.on('error', reject);
      ws.on('close', () => reject(new Error('closed before a sample')));
    });
    expect(ws.protocol).toBe('top.apolo.us');
    expect(sample.memory_bytes).toBeGreaterThan(0);
    expect(sample.memory).toBeCloseTo(sample.memory_bytes / 2 ** 20, 3);
    expect(typeof sample.cpu).toBe('number');
    ws.close();
    await call(s, 'DELETE', `/api/v1/jobs/${j.id}`, owner);
  });

  it('reruns for the owner only, as a new job with the same request', async () => {
    const j = await run(owner, 'echo again', { name: 'rerunnable', tags: ['r'] });
    await until(j.id, ['succeeded']);
    const writer = await projectMember(s, 'writer');
    const refused = await call(s, 'POST', `/api/v1/jobs/${j.id}/rerun`, writer);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only the owner may rerun a job');
    const again = await call(s, 'POST', `/api/v1/jobs/${j.id}/rerun`, owner);
    expect(again.status).toBe(202);
    expect(again.body.id).not.toBe(j.id);
    expect(again.body).toMatchObject({
      name: 'rerunnable',
      tags: ['r'],
      preset_name: 'cpu-small',
      container: { command: 'echo again' },
    });
    expect((await until(again.body.id, ['succeeded'])).status).toBe('succeeded');
  });

  it('counts what running jobs hold in the node pool the admin area shows', async () => {
    const admin = await s.user({ systemRole: 'admin' });
    const pools = async () =>
      (await call(s, 'GET', '/apis/admin/v1/clusters/default/node_pools', admin)).body[0].used;
    const before = await pools();
    const j = await run(owner, 'sleep 30', { preset_name: 'cpu-small' });
    await until(j.id, ['running']);
    const during = await pools();
    expect(during.cpu - before.cpu).toBeCloseTo(j.container.resources.cpu, 5);
    expect(during.memory - before.memory).toBe(j.container.resources.memory);
    await call(s, 'DELETE', `/api/v1/jobs/${j.id}`, owner);
    expect((await pools()).cpu).toBeCloseTo(before.cpu, 5);
  });
});
