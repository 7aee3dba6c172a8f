import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenantServer } from '../../test/fixtures.js';
import { NODE, V1, deployInput, install, stateIs, until } from '../../test/apps.js';

/** Prints two lines, then serves HTTP. */
const CHATTY = `${NODE} -e "console.log('first line');console.log('second line');require('http').createServer((q,r)=>r.end('hi')).listen(process.env.PORT)"`;

interface Line {
  job_id: string;
  container: string;
  log: string;
}
const parse = (body: string): Line[] =>
  body
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);

/** Reads an NDJSON response as it comes until `enough` holds, then hangs up. */
async function readUntil(res: Response, enough: (lines: Line[]) => boolean, stop: () => void) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!enough(parse(text.slice(0, text.lastIndexOf('\n') + 1)))) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  stop();
  return parse(text.slice(0, text.lastIndexOf('\n') + 1));
}

describe('app logs', () => {
  let s: TestServer;
  let owner: TestUser;
  let outsider: TestUser;
  let id: string;
  /** After the first job's lines, before the second job started. */
  let between: string;
  let beforeInstall: string;
  let followed: Line[];

  tenantServer(
    (x) => ({ s, owner } = x),
    { ORRERY_RUNTIME: 'process' },
    { listen: true, apps: { tickMs: 100 } },
  );
  beforeAll(async () => {
    outsider = await s.user();
    beforeInstall = new Date(Date.now() - 1000).toISOString();
    const r = await install(s, owner, {
      template_name: 'orrery-deploy',
      input: deployInput(CHATTY),
    });
    id = r.body.id;
    await until(s, owner, id, stateIs('healthy'));

    // One reader follows the instance while a new revision replaces its job.
    const gone = new AbortController();
    const res = await fetch(`${s.url}/api/v1/apps/${id}/log`, {
      headers: owner.headers,
      signal: gone.signal,
    });
    let rollback: ReturnType<typeof call> | undefined;
    // A stream that stops short says so, with what the rollback answered, instead of hanging.
    const stuck = setTimeout(() => gone.abort(), 25_000);
    followed = await readUntil(
      res,
      (lines) => {
        if (lines.length >= 2 && !rollback) {
          between = new Date().toISOString();
          rollback = call(s, 'POST', `${V1}/instances/${id}/revisions/1/rollback`, owner, {});
        }
        return lines.length >= 4;
      },
      () => gone.abort(),
    ).catch(async (e) => {
      const answer = await rollback;
      const jobs = await Promise.all(
        ((answer?.body.job_ids ?? []) as string[]).map(
          async (j) => (await call(s, 'GET', `/api/v1/jobs/${j}`, owner)).body,
        ),
      );
      throw new Error(
        `the log stopped short (${e}); rollback: ${answer?.status}, jobs: ${JSON.stringify(jobs.map((j) => j.history ?? j))}`,
      );
    });
    clearTimeout(stuck);
    expect((await rollback)?.status).toBe(200);
    const healthy = await until(
      s,
      owner,
      id,
      (a) =>
        stateIs('healthy')(a) && (a as { job_ids?: string[] }).job_ids?.[0] !== followed[0]?.job_id,
    );
    // Ended, so that the logs end too.
    await call(s, 'DELETE', `/api/v1/jobs/${healthy.job_ids[0]}`, owner);
    await until(s, owner, id, stateIs('errored'));
  });

  it('follows a running instance: the job of a new revision joins the open stream', () => {
    expect(followed.map((l) => l.log)).toEqual([
      'first line',
      'second line',
      'first line',
      'second line',
    ]);
    expect(followed.every((l) => l.container === 'main')).toBe(true);
    expect(new Set(followed.map((l) => l.job_id)).size).toBe(2);
  });

  it('streams every job the instance ran, ended ones included, and ends once it is final', async () => {
    const r = await s.app.inject({ url: `/api/v1/apps/${id}/log`, headers: owner.headers });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/application\/x-ndjson/);
    const lines = parse(r.body);
    expect(lines.map((l) => l.log)).toEqual(followed.map((l) => l.log));
    expect(lines[0]).toMatchObject({ container: 'main', job_id: expect.stringMatching(/^job-/) });
    expect(new Set(lines.map((l) => l.job_id))).toEqual(new Set(followed.map((l) => l.job_id)));
  });

  it('reads from since, and only the containers asked for', async () => {
    const get = async (query: string) =>
      s.app.inject({ url: `/api/v1/apps/${id}/log?${query}`, headers: owner.headers });
    const since = parse((await get(`since=${encodeURIComponent(between)}`)).body);
    expect(since.map((l) => l.log)).toEqual(['first line', 'second line']);
    expect(since[0]!.job_id).toBe(followed[2]!.job_id);
    expect(parse((await get('container=main')).body)).toHaveLength(4);
    expect(parse((await get('container=db')).body)).toEqual([]);
    const bad = await get('since=yesterday');
    expect(bad.statusCode).toBe(400);
  });

  it('lists the containers that ran between since and until', async () => {
    const containers = async (query = '') =>
      call(s, 'GET', `/api/v1/apps/${id}/containers${query}`, owner);
    expect(await containers()).toEqual({ status: 200, body: ['main'] });
    const q = (k: string, v: string) => `${k}=${encodeURIComponent(v)}`;
    expect((await containers(`?${q('since', beforeInstall)}`)).body).toEqual(['main']);
    expect((await containers(`?${q('until', beforeInstall)}`)).body).toEqual([]);
    const later = new Date(Date.now() + 60_000).toISOString();
    // Every job has ended by now: none ran after a minute from now.
    expect((await containers(`?${q('since', later)}`)).body).toEqual([]);
    expect((await containers('?until=soon')).status).toBe(400);
  });

  it('answers 404 for an unknown instance and for another tenant’s', async () => {
    for (const path of ['containers', 'log']) {
      const other = await call(s, 'GET', `/api/v1/apps/${id}/${path}`, outsider);
      expect(other.status).toBe(404);
      const unknown = await call(s, 'GET', `/api/v1/apps/${randomUUID()}/${path}`, owner);
      expect(unknown.status).toBe(404);
    }
    expect((await call(s, 'GET', `/api/v1/apps/${id}/containers`, null)).status).toBe(401);
  });

  it('sends raw bytes over log_ws and closes when they end; refuses before the upgrade', async () => {
    const url = `${s.url.replace('http', 'ws')}/api/v1/apps/${id}/log_ws`;
    const received = await new Promise<{ text: string; code: number }>((resolve, reject) => {
      const socket = new WebSocket(url, { headers: owner.headers });
      let text = '';
      socket.on('message', (d, binary) => {
        if (!binary) reject(new Error(`text frame: ${String(d)}`));
        text += String(d);
      });
      socket.on('close', (code) => resolve({ text, code }));
      socket.on('error', reject);
    });
    expect(received).toEqual({ text: 'first line\nsecond line\n'.repeat(2), code: 1000 });
    const refused = await new Promise<number>((resolve) => {
      const socket = new WebSocket(url, { headers: outsider.headers });
      socket.on('unexpected-response', (_q, res) => resolve(res.statusCode!));
      socket.on('open', () => resolve(101));
    });
    expect(refused).toBe(404);
  });
});
