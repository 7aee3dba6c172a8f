import { existsSync } from 'node:fs';
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, processServer } from '../../test/fixtures.js';
import { framesUntilClose } from '../../test/ingress.js';

const SCOPE = { cluster_name: 'default', org_name: 'acme', project_name: 'vision' };
const NODE = process.execPath;

/** The SDK's nested create, restart policies, names, extending, exec and WebSockets. */
describe('job lifecycle through the API', () => {
  let s: TestServer;
  let owner: TestUser;
  const get = async (id: string) => (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body;
  const until = async (id: string, done: (j: { status: string }) => boolean) => {
    for (let i = 0; i < 300; i++) {
      const j = await get(id);
      if (done(j)) return j;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`job ${id}: ${JSON.stringify(await get(id))}`);
  };
  const run = async (command: string, extra: Record<string, unknown> = {}) => {
    const r = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, {
      ...SCOPE,
      image: 'busybox',
      command,
      ...extra,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return r.body.id as string;
  };
  const ws = (path: string, protocols: string[]) =>
    new WebSocket(`${s.url.replace('http', 'ws')}${path}`, protocols, { headers: owner.headers });

  processServer((x) => ({ s, owner } = x));

  it('creates from the SDK body with explicit resources, priced by the cheapest preset that fits', async () => {
    const r = await call(s, 'POST', '/api/v1/jobs', owner, {
      ...SCOPE,
      name: 'nested',
      container: {
        image: 'busybox',
        command: 'echo nested',
        resources: { cpu: 0.3, memory_mb: 256 },
        env: { MODE: 'x' },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body).toMatchObject({
      preset_name: 'cpu-small',
      container: {
        resources: { cpu: 0.3, memory: 256 * 2 ** 20, memory_mb: 256 },
        env: { MODE: 'x' },
      },
    });
    // By name: the newest job of that name the caller can read.
    expect((await call(s, 'GET', '/api/v1/jobs/nested', owner)).body.id).toBe(r.body.id);
    const tooBig = await call(s, 'POST', '/api/v1/jobs', owner, {
      ...SCOPE,
      container: { image: 'busybox', resources: { cpu: 4096, memory: 2 ** 30 } },
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.errors[0].path).toBe('container.resources');
  });

  it.skipIf(!existsSync('/usr/bin/bwrap'))(
    'restarts a failing job with on-failure, backing off, counting the restarts',
    async () => {
      // Fails twice, then succeeds: a storage volume counts the attempts across restarts (each
      // start gets a fresh /tmp, as a restarted container gets a fresh filesystem).
      const id = await run(
        'n=$(cat /state/n 2>/dev/null || echo 0); n=$((n+1)); echo $n > /state/n; echo attempt $n; [ $n -ge 3 ]',
        {
          restart_policy: 'on-failure',
          volumes: [{ src_storage_uri: 'storage:restart-state', dst_path: '/state' }],
        },
      );
      const done = await until(id, (j) => j.status === 'succeeded' || j.status === 'failed');
      expect(done).toMatchObject({ status: 'succeeded', history: { restarts: 2, exit_code: 0 } });
      const restarts = done.statuses.filter((x: { reason: string }) => x.reason === 'Restarting');
      expect(restarts).toHaveLength(2);
      const log = await s.app.inject({
        method: 'GET',
        url: `/api/v1/jobs/${id}/log`,
        headers: owner.headers,
      });
      expect(log.body).toBe('attempt 1\nattempt 2\nattempt 3\n');
    },
  );

  it('extends the maximum run time, by a number of minutes or to a total', async () => {
    const id = await run('sleep 30', { max_run_time_minutes: 10 });
    const url = `/api/v1/jobs/${id}/max_run_time_minutes`;
    expect((await call(s, 'PUT', url, owner, { additional_max_run_time_minutes: 5 })).status).toBe(
      204,
    );
    expect((await get(id)).max_run_time_minutes).toBe(15);
    expect((await call(s, 'PUT', url, owner, { max_run_time_minutes: 120 })).status).toBe(204);
    expect((await get(id)).max_run_time_minutes).toBe(120);
    expect((await call(s, 'PUT', url, owner, { max_run_time_minutes: -1 })).status).toBe(400);
    await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
  });

  it('execs a command in a running job over the channel WebSocket', async () => {
    const id = await run('sleep 30', { env: { WHO: 'the job' } });
    await until(id, (j) => j.status === 'running');
    const socket = ws(`/api/v1/jobs/${id}/exec?cmd=${encodeURIComponent('echo hi from $WHO')}`, [
      'v2.channels.neu.ro',
    ]);
    const frames = await framesUntilClose(socket);
    const out = Buffer.concat(frames.filter((f) => f[0] === 1).map((f) => f.subarray(1)));
    expect(out.toString()).toBe('hi from the job\n');
    const exit = frames.find((f) => f[0] === 3)!;
    expect(JSON.parse(exit.subarray(1).toString())).toEqual({ exit_code: 0 });
    await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
  });

  it("passes WebSocket upgrades through the ingress, at the job's own host", async () => {
    // A WebSocket echo server in plain Node (the job's sandbox sees no module outside the host's
    // system paths): the handshake, then one masked text frame in, one text frame out.
    const echo = [
      "const c=require('crypto'),s=require('http').createServer();",
      "s.on('upgrade',(q,k)=>{const a=c.createHash('sha1').update(q.headers['sec-websocket-key']+'258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');",
      "k.write('HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\nSec-WebSocket-Accept: '+a+'\\r\\n\\r\\n');",
      "k.on('data',d=>{if((d[0]&15)!==1)return;const n=d[1]&127,m=d.subarray(2,6),p=Buffer.from(d.subarray(6,6+n).map((b,i)=>b^m[i%4])),o=Buffer.from('echo '+p);k.write(Buffer.concat([Buffer.from([129,o.length]),o]))})});",
      "s.listen(Number(process.env.PORT),'127.0.0.1');",
    ].join('');
    const server = `${NODE} -e "${echo}"`;
    const id = await run(server, { http: { port: 8080, requires_auth: true } });
    await until(id, (j) => j.status === 'running');
    const talk = () =>
      new Promise<string>((resolve, reject) => {
        const socket = new WebSocket(
          `ws://${id}.jobs.localhost:${new URL(s.url).port}/socket`,
          [],
          { headers: owner.headers },
        );
        socket.on('open', () => socket.send('ping'));
        socket.on('message', (d) => {
          resolve(String(d));
          socket.close();
        });
        socket.on('error', (e) => {
          console.log('ws error', e.message);
          reject(e);
        });
        socket.on('unexpected-response', (_q, res) => {
          console.log('unexpected', res.statusCode);
          reject(new Error('unexpected'));
        });
        socket.on('close', (code, why) => {
          console.log('close', code, String(why));
          reject(new Error(`closed ${code}`));
        });
      });
    let answer: string | undefined;
    for (let i = 0; i < 50 && !answer; i++) {
      answer = await talk().catch(() => undefined);
      if (!answer) await new Promise((r) => setTimeout(r, 100));
    }
    expect(answer).toBe('echo ping');
    await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
  });
});
