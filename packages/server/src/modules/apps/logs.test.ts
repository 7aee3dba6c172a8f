import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';
import { NODE, deployInput, install, stateIs, until } from '../../test/apps.js';

/** Prints two lines, then serves HTTP. */
const CHATTY = `${NODE} -e "console.log('first line');console.log('second line');require('http').createServer((q,r)=>r.end('hi')).listen(process.env.PORT)"`;

describe('app logs', () => {
  let s: TestServer;
  let owner: TestUser;
  let outsider: TestUser;
  let id: string;
  beforeAll(async () => {
    s = await startTestServer(
      { ORRERY_RUNTIME: 'process' },
      { listen: true, apps: { tickMs: 100 } },
    );
    ({ owner } = await tenancy(s));
    outsider = await s.user();
    const r = await install(s, owner, {
      template_name: 'orrery-deploy',
      input: deployInput(CHATTY),
    });
    id = r.body.id;
    const healthy = await until(s, owner, id, stateIs('healthy'));
    // Ended, so that the logs end too.
    await call(s, 'DELETE', `/api/v1/jobs/${healthy.job_ids[0]}`, owner);
    await until(s, owner, id, stateIs('errored'));
  });
  afterAll(() => s.stop());

  it('streams the jobs’ lines as NDJSON at the monitoring path with apps for jobs', async () => {
    const r = await s.app.inject({ url: `/api/v1/apps/${id}/log`, headers: owner.headers });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/application\/x-ndjson/);
    const lines = r.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.log)).toEqual(['first line', 'second line']);
    expect(lines[0]).toMatchObject({ container: 'main', job_id: expect.stringMatching(/^job-/) });
    const other = await s.app.inject({ url: `/api/v1/apps/${id}/log`, headers: outsider.headers });
    expect(other.statusCode).toBe(404);
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
    expect(received).toEqual({ text: 'first line\nsecond line\n', code: 1000 });
    const refused = await new Promise<number>((resolve) => {
      const socket = new WebSocket(url, { headers: outsider.headers });
      socket.on('unexpected-response', (_q, res) => resolve(res.statusCode!));
      socket.on('open', () => resolve(101));
    });
    expect(refused).toBe(404);
  });
});
