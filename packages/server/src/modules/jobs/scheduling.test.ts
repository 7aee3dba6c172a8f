import { cpus } from 'node:os';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { presets } from '../../db/schema.js';
import { type TestServer, type TestUser } from '../../test/harness.js';
import {
  addProject,
  call,
  jobReaches,
  firstMove,
  joinCluster,
  submitJob,
  tenantServer,
} from '../../test/fixtures.js';
import { invalidateCatalog } from '../clusters/store.js';

/**
 * The scheduler on the process runtime (docs/scheduling.md): jobs of two projects compete for
 * this machine's CPU, whatever its size: each job of preset `half` asks for half its cores.
 */
describe('who runs next on a full machine', () => {
  let s: TestServer;
  let owner: TestUser;
  const half = cpus().length / 2;
  const MB = 2 ** 20;

  const run = (project: string, preset: string, extra: Record<string, unknown> = {}) =>
    submitJob(s, owner, 'sleep 600', { project_name: project, preset_name: preset, ...extra });
  const job = async (id: string) => (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body;
  const until = (id: string, status: string) => jobReaches(s, owner, id, status);
  const scheduling = async (id: string) =>
    (await call(s, 'GET', `/api/v1/jobs/${id}/scheduling`, owner)).body;
  const kill = (...ids: string[]) =>
    Promise.all(ids.map((id) => call(s, 'DELETE', `/api/v1/jobs/${id}`, owner)));

  // A short kill grace: a preempted `sleep` ends at its SIGTERM anyway.
  tenantServer((x) => ({ s, owner } = x), {
    ORRERY_RUNTIME: 'process',
    ORRERY_KILL_GRACE_SECONDS: '1',
  });
  // A test that fails midway would leave the machine full for the next ones: end what is left.
  afterEach(async () => {
    const left = await call(
      s,
      'GET',
      '/api/v1/jobs?status=pending&status=running&status=suspended',
      owner,
    );
    await kill(...left.body.jobs.map((j: { id: string }) => j.id));
  });
  beforeAll(async () => {
    await addProject(s, owner, 'acme', 'speech');
    const preset = { clusterName: 'default', cpu: half, memory: 64 * MB, creditsPerHour: '1' };
    await s.ctx.db.insert(presets).values([
      { ...preset, name: 'half' },
      { ...preset, name: 'half-spot', isPreemptible: true },
      { ...preset, name: 'too-big', cpu: cpus().length * 4 },
    ]);
    invalidateCatalog(s.ctx.clusterCatalog);
  });

  it('admits the project furthest below its fair share first, and says why the others wait', async () => {
    const a1 = await run('vision', 'half');
    const a2 = await run('vision', 'half');
    await until(a1, 'running');
    await until(a2, 'running');
    const a3 = await run('vision', 'half');
    const b1 = await run('speech', 'half');
    // The speech project holds nothing: its job, though newer, is next.
    const waiting = await vi.waitFor(
      async () => {
        const w = await scheduling(a3);
        expect(w.position).toBe(2);
        return w;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(waiting.reasons[0]).toMatchObject({ kind: 'capacity', short: ['cpu'] });
    expect(waiting.reasons[1]).toEqual({ kind: 'behind', ahead: 1 });
    expect(waiting.message).toMatch(/^Waiting for free capacity: no node has the CPU/);
    expect((await scheduling(b1)).position).toBe(1);
    // The pass decides, then writes each waiting job's reason: the history follows the place.
    const pending = await vi.waitFor(
      async () => {
        const j = await job(a3);
        expect(j).toMatchObject({
          status: 'pending',
          queue_position: 2,
          history: { reason: 'ClusterScalingUp' },
        });
        return j;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(pending.history.description).toMatch(/^Waiting for free capacity/);
    const listed = await call(s, 'GET', '/api/v1/jobs?status=pending', owner);
    expect(
      listed.body.jobs.map((j: { id: string; queue_position: number }) => [j.id, j.queue_position]),
    ).toEqual(
      expect.arrayContaining([
        [a3, 2],
        [b1, 1],
      ]),
    );

    await kill(a1);
    await until(b1, 'running');
    expect((await job(a3)).status).toBe('pending');
    expect((await scheduling(a3)).position).toBe(1);
    await kill(a2);
    await until(a3, 'running');
    expect(await scheduling(a3)).toMatchObject({ position: null, reasons: [], message: null });
    await kill(a3, b1);
  });

  it('preempts the newest preemptible job for a job of higher priority, and starts it again after', async () => {
    const low1 = await run('vision', 'half-spot', { priority: 'low' });
    await until(low1, 'running');
    const low2 = await run('vision', 'half-spot', { priority: 'low' });
    await until(low2, 'running');
    const high = await run('vision', 'half', { priority: 'high' });
    // Its move says why; the wait in the queue that follows may already have its own reason.
    const preempted = firstMove(await until(low2, 'suspended'), 'suspended');
    expect(preempted).toMatchObject({ reason: 'Preempted' });
    expect(preempted.description).toContain(high);
    await until(high, 'running');
    expect((await job(low1)).status).toBe('running');
    // It waits in the queue and starts again once the capacity is free.
    expect((await scheduling(low2)).position).toBe(1);
    await kill(high);
    const again = await until(low2, 'running');
    const statuses = again.statuses.map((t: { status: string }) => t.status);
    expect(statuses.indexOf('suspended')).toBeGreaterThan(statuses.indexOf('running'));
    expect(statuses.lastIndexOf('running')).toBeGreaterThan(statuses.indexOf('suspended'));
    await kill(low1, low2);
  });

  it('never preempts work that is not preemptible: the high-priority job waits', async () => {
    const a = await run('vision', 'half', { priority: 'low' });
    const b = await run('vision', 'half', { priority: 'low' });
    await until(a, 'running');
    await until(b, 'running');
    const high = await run('vision', 'half', { priority: 'high' });
    await vi.waitFor(async () => expect((await scheduling(high)).position).toBe(1), {
      timeout: 10_000,
      interval: 50,
    });
    expect((await job(a)).status).toBe('running');
    expect((await job(b)).status).toBe('running');
    await kill(a, b, high);
  });

  it('takes borrowed capacity back for the project that owns it, and never work within its quota', async () => {
    const quota = (project: string, body: object) =>
      call(
        s,
        'PUT',
        `/apis/admin/v1/clusters/default/orgs/acme/projects/${project}/quota`,
        owner,
        body,
      );
    // Each project owns half the machine; vision may borrow the other half while it is idle.
    expect((await quota('vision', { cpu: half, borrowing_limit: { cpu: half } })).status).toBe(200);
    expect((await quota('speech', { cpu: half })).status).toBe(200);
    const inQuota = await run('vision', 'half');
    await until(inQuota, 'running');
    const borrowed = await run('vision', 'half');
    await until(borrowed, 'running');
    const owner_ = await run('speech', 'half');
    const taken = firstMove(await until(borrowed, 'suspended'), 'suspended');
    expect(taken).toMatchObject({ reason: 'Preempted' });
    expect(taken.description).toMatch(/borrowed/);
    await until(owner_, 'running');
    expect((await job(inQuota)).status).toBe('running');
    await kill(owner_);
    await until(borrowed, 'running');
    await kill(inQuota, borrowed);
    await quota('vision', {});
    await quota('speech', {});
  });

  it('refuses at submission a job bigger than every node, saying what the largest has', async () => {
    const r = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, {
      cluster_name: 'default',
      org_name: 'acme',
      project_name: 'vision',
      preset_name: 'too-big',
      image: 'busybox',
      command: 'true',
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^The job can never start: it needs \d+ CPU/);
    expect(r.body.message).toContain(`the largest node it may use has ${cpus().length} CPU`);
  });

  it("shows a job's place only to those who may read the job, and the queue only to cluster managers", async () => {
    const id = await run('vision', 'half');
    const stranger = await s.user();
    expect((await call(s, 'GET', `/api/v1/jobs/${id}/scheduling`, stranger)).status).toBe(404);
    const queuePath = '/apis/admin/v1/clusters/default/queue';
    expect((await call(s, 'GET', queuePath, owner)).status).toBe(403);
    const manager = await joinCluster(s, await s.user(), 'manager');
    const queue = await vi.waitFor(
      async () => {
        const q = (await call(s, 'GET', queuePath, manager)).body;
        expect(q.jobs.map((j: { id: string }) => j.id)).toContain(id);
        return q;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(queue.capacity.cpu).toBe(cpus().length);
    const acme = queue.orgs.find((o: { org: string }) => o.org === 'acme');
    expect(acme.projects.map((p: { project: string }) => p.project)).toContain('vision');
    expect(acme.quota).toBeNull();
    await kill(id);
  });
});
