import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';
import { presets } from '../../db/schema.js';
import { invalidateCatalog } from '../clusters/store.js';

const SCOPE = { cluster_name: 'default', org_name: 'acme', project_name: 'vision' };
const conf = process.env.ORRERY_TEST_SLURM_CONF;
const user = process.env.ORRERY_TEST_SLURM_USER ?? 'orrery-slurm';

/**
 * The jobs API on the slurm runtime, on a real Slurm cluster whose nodes are this machine
 * (ORRERY_TEST_SLURM_CONF, as driver.slurm.test.ts): created, running, succeeded or failed with
 * Slurm's exit code, logs, and a kill that ends cancelled.
 */
describe.skipIf(!conf)('jobs on the slurm runtime', () => {
  let s: TestServer;
  let owner: TestUser;
  let shared: string;
  const created: string[] = [];

  const run = async (command: string) => {
    const r = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, {
      ...SCOPE,
      preset_name: 'cpu-small',
      image: 'ubuntu',
      command,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    created.push(r.body.id as string);
    return r.body.id as string;
  };
  const until = async (id: string, statuses: string[]) => {
    for (let i = 0; i < 300; i++) {
      const j = (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body;
      if (statuses.includes(j.status)) return j;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`job ${id} never reached ${statuses.join('/')}`);
  };
  const env = () => ({
    ORRERY_RUNTIME: 'slurm',
    ORRERY_SLURM_CONF: conf!,
    ORRERY_SLURM_USER: user,
    ORRERY_SLURM_SHARED_DIR: shared,
    ORRERY_KILL_GRACE_SECONDS: '2',
  });
  /** The names of the jobs Slurm holds. */
  const squeueNames = () => {
    const squeue = execFileSync('squeue', ['--json'], {
      env: { ...process.env, SLURM_CONF: conf },
    });
    return (JSON.parse(String(squeue)) as { jobs: Array<{ name: string }> }).jobs.map(
      (j) => j.name,
    );
  };
  const log = async (id: string) =>
    (await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}/log`, headers: owner.headers }))
      .body;

  beforeAll(async () => {
    shared = mkdtempSync(join(process.env.ORRERY_TEST_SLURM_SHARED ?? tmpdir(), 'jobs-'));
    chmodSync(shared, 0o755);
    s = await startTestServer(env(), { persistent: true });
    ({ owner } = await tenancy(s));
    // A server's first start takes a minute or more on the shared 2-core machine under load.
  }, 300_000);
  afterAll(async () => {
    for (const id of created) await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner).catch(() => 0);
    await s?.stop();
    rmSync(shared, { recursive: true, force: true });
  });

  it("keeps its embedded database the server user's alone: no entry open to a group or others", () => {
    const pgdata = join(s.state.dataDir, 'pgdata');
    expect(statSync(pgdata).mode & 0o777).toBe(0o700);
    const entries = readdirSync(pgdata, { recursive: true, encoding: 'utf8' });
    expect(entries.length).toBeGreaterThan(5);
    expect(entries.filter((e) => statSync(join(pgdata, e)).mode & 0o077)).toEqual([]);
  });

  it('runs a job to success and keeps its log', async () => {
    const id = await run('sleep 1; echo hello from slurm');
    await until(id, ['running', 'succeeded']);
    const done = await until(id, ['succeeded', 'failed']);
    expect(done).toMatchObject({
      status: 'succeeded',
      runtime: 'slurm',
      history: { exit_code: 0 },
    });
    expect(await log(id)).toBe('hello from slurm\n');
  });

  it('fails a job with its own exit code', async () => {
    const id = await run('echo bad; exit 3');
    const done = await until(id, ['succeeded', 'failed']);
    expect(done).toMatchObject({ status: 'failed', history: { exit_code: 3 } });
  });

  it('kills a running job: cancelled', async () => {
    const id = await run('echo up; sleep 120');
    await until(id, ['running']);
    // Running to Slurm is before the sandbox has started the command: kill it once it has (its
    // output file, as the log route would follow it while the job runs).
    const out = join(shared, 'jobs', id, 'out.log');
    await expect
      .poll(() => (existsSync(out) ? readFileSync(out, 'utf8') : ''), { timeout: 15_000 })
      .toContain('up');
    expect((await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner)).status).toBe(204);
    const done = await until(id, ['cancelled', 'failed', 'succeeded']);
    expect(done.status).toBe('cancelled');
    expect(await log(id)).toContain('up');
  });

  it('admits GPU jobs while a GPU is free: a third waits in Orrery, not in Slurm, then starts', async () => {
    // The gpu partition has one node with two (fake) GPUs (scripts/slurm.mjs).
    await s.ctx.db.insert(presets).values({
      clusterName: 'default',
      name: 'one-gpu',
      cpu: 0.5,
      memory: 128 * 2 ** 20,
      creditsPerHour: '1',
      gpus: { nvidia: { count: 1 } },
      resourcePoolNames: ['gpu'],
    });
    invalidateCatalog(s.ctx.clusterCatalog);
    const gpuJob = async () => {
      const r = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, {
        ...SCOPE,
        preset_name: 'one-gpu',
        image: 'ubuntu',
        command: 'sleep 120',
      });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      created.push(r.body.id as string);
      return r.body.id as string;
    };
    const [a, b] = [await gpuJob(), await gpuJob()];
    await until(a, ['running']);
    await until(b, ['running']);
    const c = await gpuJob();
    await expect
      .poll(async () => (await call(s, 'GET', `/api/v1/jobs/${c}/scheduling`, owner)).body, {
        timeout: 15_000,
      })
      .toMatchObject({ position: 1, reasons: [{ kind: 'capacity', short: ['nvidia_gpu'] }] });
    const waiting = (await call(s, 'GET', `/api/v1/jobs/${c}`, owner)).body;
    expect(waiting).toMatchObject({ status: 'pending', materialized: false });
    expect(squeueNames()).not.toContain(`orrery-${c}`);
    expect((await call(s, 'DELETE', `/api/v1/jobs/${a}`, owner)).status).toBe(204);
    await until(c, ['running']);
    for (const id of [b, c]) await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
  }, 120_000);

  it('finds a running job again after a server restart, without submitting it twice', async () => {
    const id = await run('sleep 10; echo ran once');
    await until(id, ['running']);
    await s.halt();
    s = await startTestServer(env(), { restartOf: s.state });
    // A restart under load may take longer than the job: running, or done while no one watched.
    const after = (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body.status as string;
    expect(['running', 'succeeded']).toContain(after);
    const done = await until(id, ['succeeded', 'failed', 'cancelled']);
    expect(done.status).toBe('succeeded');
    expect(await log(id)).toBe('ran once\n');
    expect(squeueNames().filter((n) => n === `orrery-${id}`)).toHaveLength(1);
  }, 180_000);
});
