import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { describe, expect, it, vi } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, JOB_SCOPE as SCOPE, submitJob, processServer } from '../../test/fixtures.js';
import { framesUntilClose } from '../../test/ingress.js';

const sandboxed = existsSync('/usr/bin/bwrap');

/** Storage, disk and secret volumes, secret env, logs and capacity of jobs. */
describe('what a job mounts and what it says', () => {
  let s: TestServer;
  let owner: TestUser;
  const run = (command: string, extra: Record<string, unknown> = {}) =>
    submitJob(s, owner, command, extra);
  const until = async (id: string, statuses: string[]) => {
    for (let i = 0; i < 300; i++) {
      const j = (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body;
      if (statuses.includes(j.status)) return j;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`job ${id} never reached ${statuses.join('/')}`);
  };
  const logOf = async (id: string, query = '') =>
    (
      await s.app.inject({
        method: 'GET',
        url: `/api/v1/jobs/${id}/log${query}`,
        headers: owner.headers,
      })
    ).body;

  processServer((x) => ({ s, owner } = x));

  it('gives secrets as env and as read-only files, never in the job JSON', async () => {
    const value = Buffer.from('s3cr3t-value').toString('base64');
    expect(
      (await call(s, 'POST', '/api/v1/secrets', owner, { key: 'api-key', value, ...SCOPE })).status,
    ).toBe(201);
    const id = await run('echo "env=$API_KEY"; echo "file=$(cat /run/secret/key)"', {
      secret_env: { API_KEY: 'secret://default/acme/vision/api-key' },
      secret_volumes: [{ src_secret_uri: 'secret:api-key', dst_path: '/run/secret/key' }],
    });
    const done = await until(id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    expect(JSON.stringify(done)).not.toContain('s3cr3t-value');
    expect(done.container.secret_volumes[0].src_secret_uri).toBe(
      'secret://default/acme/vision/api-key',
    );
    const log = await logOf(id);
    expect(log).toContain('env=s3cr3t-value');
    expect(log).toContain('file=s3cr3t-value');
  });

  it('refuses a secret the owner cannot read', async () => {
    const r = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, {
      ...SCOPE,
      image: 'busybox',
      command: 'true',
      secret_env: { X: 'secret://default/other/place/key' },
    });
    expect(r.status).toBe(403);
    expect(r.body.errors[0].path).toBe('secret_env.X');
  });

  it.skipIf(!sandboxed)('mounts storage read-write and read-only at their paths', async () => {
    const home = join(s.config.dataDir, 'storage', 'default', 'acme', 'vision');
    mkdirSync(join(home, 'inputs'), { recursive: true });
    writeFileSync(join(home, 'inputs', 'data.csv'), 'a,b\n1,2\n');
    const id = await run(
      'cat /in/data.csv; echo result > /out/result.txt; touch /in/nope 2>/dev/null && echo wrote-ro || echo ro-refused',
      {
        volumes: [
          { src_storage_uri: 'storage:inputs', dst_path: '/in', read_only: true },
          { src_storage_uri: 'storage://default/acme/vision/outputs', dst_path: '/out' },
        ],
      },
    );
    expect((await until(id, ['succeeded', 'failed'])).status).toBe('succeeded');
    const log = await logOf(id);
    expect(log).toContain('1,2');
    expect(log).toContain('ro-refused');
    expect(readFileSync(join(home, 'outputs', 'result.txt'), 'utf8')).toBe('result\n');
    // The job's output is a file of the project's storage, readable through the storage API.
    const read = await s.app.inject({
      method: 'GET',
      url: '/api/v1/storage/acme/vision/outputs/result.txt?op=OPEN',
      headers: owner.headers,
    });
    expect(read.body).toBe('result\n');
  });

  it.skipIf(!sandboxed)('mounts a disk, and the disk cannot be deleted while in use', async () => {
    const disk = await call(s, 'POST', '/api/v1/disk', owner, {
      storage: 10 ** 9,
      name: 'scratch',
      ...SCOPE,
    });
    expect(disk.status).toBe(201);
    const id = await run('echo kept > /disk/kept.txt; sleep 30', {
      disk_volumes: [{ src_disk_uri: 'disk:scratch', dst_path: '/disk', read_only: false }],
    });
    const running = await until(id, ['running']);
    // Names are resolved once: the job keeps the disk's id.
    expect(running.container.disk_volumes[0].src_disk_uri).toBe(
      `disk://default/acme/vision/${disk.body.id}`,
    );
    const busy = await call(
      s,
      'DELETE',
      `/api/v1/disk/${disk.body.id}?${new URLSearchParams(SCOPE)}`,
      owner,
    );
    expect(busy.status).toBe(409);
    await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
    const after = await call(
      s,
      'GET',
      `/api/v1/disk/${disk.body.id}?${new URLSearchParams(SCOPE)}`,
      owner,
    );
    expect(after.body.last_usage).not.toBeNull();
    expect(
      (await call(s, 'DELETE', `/api/v1/disk/${disk.body.id}?${new URLSearchParams(SCOPE)}`, owner))
        .status,
    ).toBe(204);
  });

  it('streams logs with timestamps and since, over HTTP and the CLI WebSocket', async () => {
    const id = await run('echo first; sleep 1.1; echo second');
    const done = await until(id, ['succeeded']);
    const stamped = await logOf(id, '?timestamps=1');
    const lines = stamped.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z first$/);
    const secondAt = lines[1]!.split(' ')[0]!;
    expect(await logOf(id, `?since=${encodeURIComponent(secondAt)}`)).toBe('second\n');
    const ws = new WebSocket(
      `${s.url.replace('http', 'ws')}/api/v1/jobs/${done.id}/log_ws`,
      ['logs.apolo.us'],
      { headers: owner.headers },
    );
    const received = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      ws.on('message', (d: Buffer) => chunks.push(d));
      ws.on('close', () => resolve(Buffer.concat(chunks).toString()));
      ws.on('error', reject);
    });
    expect(ws.protocol).toBe('logs.apolo.us');
    expect(received).toBe('first\nsecond\n');
  });

  it('keeps a job pending while the machine is full, then fails it at its schedule timeout', async () => {
    // cpu-large asks for every core of this machine: two cannot run at once.
    const big = await run('sleep 30', { preset_name: 'cpu-large' });
    await until(big, ['running']);
    const capacity = await call(s, 'GET', '/api/v1/jobs/capacity', owner);
    expect(capacity.body['cpu-large']).toBe(0);
    const waiting = await run('true', { preset_name: 'cpu-large', schedule_timeout: 1 });
    // Pending from the start; the scheduler then says why (before the 1 s timeout fails it).
    const pending = await vi.waitFor(
      async () => {
        const p = (await call(s, 'GET', `/api/v1/jobs/${waiting}`, owner)).body;
        expect(p.history.reason).toBe('ClusterScalingUp');
        return p;
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(pending).toMatchObject({ status: 'pending', history: { reason: 'ClusterScalingUp' } });
    expect(pending.history.description).toMatch(/Waiting for free capacity/);
    const failed = await until(waiting, ['failed']);
    expect(failed.history.reason).toBe('ScheduleTimeout');
    await call(s, 'DELETE', `/api/v1/jobs/${big}`, owner);
  });

  it("passes the owner's config into the job when asked, so the CLI inside acts as them", async () => {
    const id = await run('echo "$NEURO_PASSED_CONFIG"', { pass_config: true });
    expect((await until(id, ['succeeded'])).pass_config).toBe(true);
    const passed = JSON.parse(Buffer.from((await logOf(id)).trim(), 'base64').toString());
    expect(passed).toMatchObject({ cluster: 'default', org_name: 'acme', project_name: 'vision' });
    const me = await s.app.inject({
      method: 'GET',
      url: '/api/v1/jobs?org_name=acme',
      headers: { authorization: `Bearer ${passed.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().jobs.some((j: { id: string }) => j.id === id)).toBe(true);
  });

  it('attaches until the job ends and then sends its exit code on channel 3', async () => {
    const id = await run('sleep 0.5; exit 4');
    const ws = new WebSocket(
      `${s.url.replace('http', 'ws')}/api/v1/jobs/${id}/attach?stdout=1&stderr=1`,
      ['v2.channels.neu.ro'],
      { headers: owner.headers },
    );
    const frames = await framesUntilClose(ws);
    const exit = frames.find((f) => f[0] === 3)!;
    expect(JSON.parse(exit.subarray(1).toString())).toEqual({ exit_code: 4 });
  });
});
