import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { presets } from '../../db/schema.js';
import type { TestServer, TestUser } from '../../test/harness.js';
import { call, firstMove, jobReaches, submitJob, tenantServer } from '../../test/fixtures.js';
import { framesUntilClose, upgrade } from '../../test/ingress.js';
import {
  MPI_ALLREDUCE,
  MPI_INSTALLED,
  MPI_REFUSALS,
  MPI_RUN,
  mpiLines,
  RANK_EXCHANGE,
  RUN_PROG,
} from '../../test/gang-programs.js';
import { SLIRP } from '../../runtime/process/network.js';
import { BWRAP } from '../../runtime/process/sandbox.js';
import { invalidateCatalog } from '../clusters/store.js';

const missing = [
  existsSync(BWRAP) ? '' : 'bubblewrap',
  existsSync(SLIRP) ? '' : 'slirp4netns',
  existsSync('/usr/bin/python3') ? '' : '/usr/bin/python3',
  process.getuid?.() === 0 ? '' : 'a root server',
].filter(Boolean);
const why = missing.length ? ` (skipped: needs ${missing.join(', ')})` : '';
const mpi = MPI_INSTALLED;

/**
 * Jobs of several workers through the API on the process runtime (docs/jobs.md "Distributed
 * jobs"): admitted whole or not at all, one status for the gang. Preset `half` asks for half of
 * this machine's cores, so two such workers fill it.
 */
describe.skipIf(missing.length > 0)(`jobs of several workers${why}`, () => {
  let s: TestServer;
  let owner: TestUser;
  const half = cpus().length / 2;
  const MB = 2 ** 20;
  const submit = (command: string, extra: Record<string, unknown> = {}) =>
    submitJob(s, owner, command, { preset_name: 'half', ...extra });
  const job = async (id: string) => (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body;
  const until = (id: string, status: string) => jobReaches(s, owner, id, status, 60_000);
  const log = async (id: string, query = '') => {
    const res = await s.app.inject({
      method: 'GET',
      url: `/api/v1/jobs/${id}/log${query}`,
      headers: owner.headers,
    });
    return res.body;
  };
  const post = (body: Record<string, unknown>) =>
    call(s, 'POST', '/api/v1/jobs?from_preset', owner, {
      cluster_name: 'default',
      org_name: 'acme',
      project_name: 'vision',
      preset_name: 'half',
      image: 'busybox',
      command: 'true',
      ...body,
    });

  tenantServer(
    (x) => ({ s, owner } = x),
    { ORRERY_RUNTIME: 'process', ORRERY_KILL_GRACE_SECONDS: '1' },
    { listen: true },
  );
  const wsUrl = (path: string) => `${s.url.replace('http', 'ws')}${path}`;
  /** What `cmd` prints in the job (`?worker=N` in `query`), and its exit code. */
  const exec = async (id: string, cmd: string, query = '') => {
    const url = wsUrl(`/api/v1/jobs/${id}/exec?cmd=${encodeURIComponent(cmd)}${query}`);
    const frames = await framesUntilClose(new WebSocket(url, [], { headers: owner.headers }));
    const out = Buffer.concat(frames.filter((f) => f[0] === 1).map((f) => f.subarray(1)));
    const exit = frames.find((f) => f[0] === 3);
    return { out: out.toString(), exit: exit && JSON.parse(exit.subarray(1).toString()) };
  };
  /** The first sample of the top stream (`?worker=N` in `query`). */
  const sample = (id: string, query = '') =>
    new Promise<{ memory_bytes: number }>((resolve, reject) => {
      const ws = new WebSocket(wsUrl(`/api/v1/jobs/${id}/top${query}`), [], {
        headers: owner.headers,
      });
      ws.once('message', (d) => {
        resolve(JSON.parse(String(d)) as { memory_bytes: number });
        ws.close();
      });
      ws.once('error', reject);
      ws.once('close', () => reject(new Error('closed before a sample')));
    });
  beforeAll(async () => {
    const preset = { clusterName: 'default', cpu: half, memory: 128 * MB, creditsPerHour: '1.5' };
    await s.ctx.db.insert(presets).values([
      { ...preset, name: 'half' },
      { ...preset, name: 'half-spot', isPreemptible: true },
    ]);
    invalidateCatalog(s.ctx.clusterCatalog);
  });

  it('refuses nodes below 1, not whole, or more than the machine could ever hold', async () => {
    // The job form offers Workers here: the runtime says of no refusal.
    const info = await call(s, 'GET', '/api/v1/jobs/runtime', owner);
    expect(info.body).toMatchObject({ name: 'process' });
    expect(info.body.workers_refusal).toBeUndefined();
    for (const [nodes, message] of [
      [0, 'nodes must be at least 1'],
      [1.5, 'nodes must be a whole number of workers'],
      [5000, 'nodes must be at most 1024'],
    ] as const) {
      const r = await post({ nodes });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(message);
    }
    const r = await post({ nodes: 3 });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(
      /^The job can never start: its 3 workers each need [\d.]+ CPU, .*, and the nodes it may use hold at most 2 of them at once$/,
    );
  });

  it('runs two workers that find each other, as one job that succeeds', async () => {
    const id = await submit(RUN_PROG, { nodes: 2, env: { PROG: RANK_EXCHANGE } });
    const created = await job(id);
    expect(created).toMatchObject({ nodes: 2, price_credits_per_hour: '3.0000' });
    expect(created.container.workers).toBeUndefined();
    const done = await until(id, 'succeeded');
    expect(done.history.exit_code).toBe(0);
    const lines = (await log(id)).trim().split('\n').sort();
    expect(lines).toEqual([
      expect.stringMatching(/^rank 0 of 2 heard ranks 1 uid \d+$/),
      expect.stringMatching(/^rank 1 of 2 heard rank 0 uid \d+$/),
    ]);
    // Each worker's own log, by its rank.
    expect(await log(id, '?worker=1')).toBe(`${lines[1]}\n`);
    expect(await log(id, '?worker=0')).toBe(`${lines[0]}\n`);
    const beyond = await call(s, 'GET', `/api/v1/jobs/${id}/log?worker=2`, owner);
    expect(beyond.status).toBe(400);
    expect(beyond.body.message).toBe('The job has 2 worker(s), numbered from 0');
    // Apolo's clients leave nodes out: one worker.
    const single = await submit('true');
    expect((await job(single)).nodes).toBe(1);
  });

  it('fails the job when a worker fails, with the reason, having stopped the other', async () => {
    const id = await submit('if [ "$RANK" = 1 ]; then exit 3; fi; exec sleep 600', { nodes: 2 });
    const done = await until(id, 'failed');
    expect(done.history).toMatchObject({
      exit_code: 3,
      description: 'Worker 1 of 2 exited with code 3; the other workers were stopped',
    });
  });

  it('keeps a gang that cannot fit waiting whole, and starts it once the capacity frees', async () => {
    const blocker = await submit('exec sleep 600');
    await until(blocker, 'running');
    const id = await submit('echo "worker $RANK"; exec sleep 600', { nodes: 2 });
    const waiting = await vi.waitFor(
      async () => {
        const w = (await call(s, 'GET', `/api/v1/jobs/${id}/scheduling`, owner)).body;
        expect(w.reasons[0]).toMatchObject({ kind: 'capacity', workers: 2, fitting: 1 });
        return w;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(waiting.message).toMatch(/^Waiting for free capacity for all 2 workers at once/);
    // No worker started: the job was never handed to the runtime.
    expect(await job(id)).toMatchObject({ status: 'pending', materialized: false });
    await call(s, 'DELETE', `/api/v1/jobs/${blocker}`, owner);
    const running = await until(id, 'running');
    expect(running.materialized).toBe(true);
    // Cancelled together.
    await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
    await until(id, 'cancelled');
    // Both workers had started: the merged log has each one's line.
    expect((await log(id)).split('\n').sort()).toEqual(['', 'worker 0', 'worker 1']);
  });

  it('execs into a chosen worker and streams its own stats; a rank the job lacks is a 400', async () => {
    // Worker 1 holds 64 MiB more than worker 0.
    const hold = `/usr/bin/python3 -c "import signal; b = b'x' * (64 << 20); signal.pause()"`;
    const id = await submit(`if [ "$RANK" = 1 ]; then exec ${hold}; fi; exec sleep 600`, {
      nodes: 2,
    });
    await until(id, 'running');
    const where = 'echo "$RANK $(hostname)"';
    expect(await exec(id, where)).toEqual({ out: `0 ${id}.w0\n`, exit: { exit_code: 0 } });
    expect(await exec(id, where, '&worker=1')).toEqual({
      out: `1 ${id}.w1\n`,
      exit: { exit_code: 0 },
    });
    // Each worker's load alone, or the two added up.
    const MiB = 2 ** 20;
    await vi.waitFor(
      async () => expect((await sample(id, '?worker=1')).memory_bytes).toBeGreaterThan(64 * MiB),
      {
        timeout: 20_000,
        interval: 100,
      },
    );
    expect((await sample(id, '?worker=0')).memory_bytes).toBeLessThan(32 * MiB);
    expect((await sample(id)).memory_bytes).toBeGreaterThan(64 * MiB);
    for (const path of ['exec?cmd=true&', 'top?', 'attach?stdout=1&']) {
      const refused = await upgrade(`${s.url}/api/v1/jobs/${id}/${path}worker=2`, owner.headers);
      expect(refused).toMatchObject({ refused: 400 });
      expect(JSON.parse((refused as { body: string }).body).message).toBe(
        'The job has 2 worker(s), numbered from 0',
      );
    }
    await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
    await until(id, 'cancelled');
  });

  it.skipIf(!mpi)(
    `runs an MPI all-reduce across the workers with plain mpirun, whose agent reaches only them${mpi ? '' : ' (skipped: openmpi-bin or python3-mpi4py is not installed)'}`,
    async () => {
      const command = `if [ "$RANK" = 0 ]; then ${MPI_REFUSALS}; fi; ${MPI_RUN}`;
      const id = await submit(command, { nodes: 2, env: { PROG: MPI_ALLREDUCE } });
      const done = await until(id, 'succeeded');
      const merged = await log(id);
      expect(done.history.exit_code, merged).toBe(0);
      // mpirun ran on worker 0, rank 1 in worker 1: each printed the sum of the ranks.
      for (const line of mpiLines(id)) expect(merged).toContain(line);
    },
    180_000,
  );

  it('preempts the preemptible work in its way for a high-priority gang, which starts whole', async () => {
    const low = [];
    for (let i = 0; i < 2; i++) {
      const id = await submit('exec sleep 600', { preset_name: 'half-spot', priority: 'low' });
      await until(id, 'running');
      low.push(id);
    }
    const id = await submit('echo "worker $RANK"; exec sleep 600', {
      nodes: 2,
      priority: 'high',
    });
    // Both low-priority jobs give way: one alone would not make room for both workers.
    for (const victim of low) {
      const stopped = firstMove(await until(victim, 'suspended'), 'suspended');
      expect(stopped).toMatchObject({ reason: 'Preempted' });
      expect(stopped.description).toBe(
        `Preempted for job ${id} of higher priority in the same project`,
      );
    }
    const running = await until(id, 'running');
    expect(running.materialized).toBe(true);
    // They wait in the queue again while the gang holds the machine.
    expect((await job(low[0])).status).toBe('suspended');
    for (const j of [id, ...low]) await call(s, 'DELETE', `/api/v1/jobs/${j}`, owner);
    await until(id, 'cancelled');
  });
});
