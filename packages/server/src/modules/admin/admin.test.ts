import { cpus, totalmem } from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusters, nodePools } from '../../db/schema.js';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { ORG_CLUSTER_TEXTS } from '@orrery/contract';
import { call, tenancy } from '../../test/fixtures.js';
import { mailsTo } from '../../auth/oidc/testing/flow.js';
import { loadClusters } from '../clusters/store.js';
import { usedByJobs } from './pools.js';
import { creditLedger } from '../billing/tables.js';

const A = '/apis/admin/v1';
const PRESETS = '/api/v1/clusters/lab/orchestrator/resource_presets';
const GB = 1e9;
/** A preset in a change's answer: the whole cluster, as Apolo's config service answers. */
const presetIn = (
  cluster: { orchestrator: { resource_presets: { name: string }[] } },
  name: string,
) => cluster.orchestrator.resource_presets.find((p) => p.name === name);

describe('admin area', () => {
  let s: TestServer;
  let admin: TestUser;
  let owner: TestUser;
  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.user({ systemRole: 'admin' });
    ({ owner } = await tenancy(s));
    // A cluster whose pools are known, so that every preset rule has a fixed edge.
    await s.ctx.db.insert(clusters).values({ name: 'lab' });
    await s.ctx.db.insert(nodePools).values([
      {
        clusterName: 'lab',
        name: 'cpu-pool',
        minSize: 1,
        maxSize: 3,
        cpu: 8,
        memory: 32 * GB,
        diskSize: 100 * GB,
      },
      {
        clusterName: 'lab',
        name: 'gpu-pool',
        minSize: 0,
        maxSize: 2,
        cpu: 16,
        memory: 64 * GB,
        diskSize: 100 * GB,
        isPreemptible: true,
        gpus: { nvidia: { count: 4, model: 'A100', memory: 40 * GB } },
      },
    ]);
  });
  afterAll(() => s.stop());

  const base = { name: 'p', cpu: 1, memory: 1 * GB, credits_per_hour: '1' };
  const post = (body: object) => call(s, 'POST', PRESETS, admin, { ...base, ...body });

  it.each([
    [{ name: '' }, 'name', 'Name is required'],
    [{ cpu: 0.001 }, 'cpu', 'Number of CPU cores cannot be less than 0.01 cores'],
    [
      { cpu: 17 },
      'cpu',
      'Number of CPU cores cannot be larger than number of cores in any node pool',
    ],
    [{ memory: 'lots' }, 'memory', 'Memory is not a number'],
    [{ memory: 63_999_999 }, 'memory', 'Memory cannot be less than 64 MB'],
    [
      { memory: 65 * GB },
      'memory',
      'Memory cannot be larger than amount of memory in any node pool',
    ],
    [
      { credits_per_hour: '-1' },
      'credits_per_hour',
      'Credits per hour must be a non-negative number',
    ],
    [
      { credits_per_hour: 'free' },
      'credits_per_hour',
      'Credits per hour must be a non-negative number',
    ],
    [
      { nvidia_gpu: { count: 0, model: 'A100' }, preemptible_node: true },
      'nvidia_gpu.count',
      'Number cannot be 0 for GPU model',
    ],
    [
      { nvidia_gpu: { count: 5, model: 'A100' }, preemptible_node: true },
      'nvidia_gpu.count',
      'Number cannot be larger than number of GPUs for selected GPU model',
    ],
    [
      { amd_gpu: { count: 1 } },
      'amd_gpu.count',
      'Number cannot be larger than number of GPUs for selected GPU model',
    ],
    // Each value fits some pool, but no single pool holds them together.
    [{ cpu: 12 }, 'name', "This preset won't fit into any node pool"],
    [{ nvidia_gpu: { count: 1 } }, 'name', "This preset won't fit into any node pool"],
    // Only the preemptible gpu-pool has 40 GB; a preset that is not preemptible cannot use it.
    [{ memory: 40 * GB }, 'name', "This preset won't fit into any node pool"],
  ])('refuses %j with "%s: %s"', async (body, path, message) => {
    const r = await post(body);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
    expect(r.body.errors).toContainEqual({ path, message });
  });

  it('knows only the GPU makes nvidia, amd and intel: another make is not a GPU field', async () => {
    const r = await post({ tpu_gpu: { count: 1 }, gpu: { make: 'tpu' } });
    expect(r.status).toBe(201);
    expect(presetIn(r.body, 'p')).toBeDefined();
    expect(presetIn(r.body, 'p')).not.toHaveProperty('nvidia_gpu');
    const bad = await call(s, 'POST', PRESETS, admin, { ...base, name: 'q', nvidia_gpu: 'many' });
    expect(bad.status).toBe(400);
    await call(s, 'DELETE', `${PRESETS}/p`, admin);
  });

  it('creates a preset on the pools it fits, shows it in the config, edits and deletes it', async () => {
    const r = await post({
      name: 'gpu-1',
      cpu: '4',
      memory: 16 * GB,
      credits_per_hour: 2.5,
      preemptible_node: true,
      nvidia_gpu: { count: 1, model: 'A100' },
    });
    // cpu as a string is not a number on the wire.
    expect(r.status).toBe(400);
    const created = await post({
      name: 'gpu-1',
      cpu: 4,
      memory: 16 * GB,
      credits_per_hour: 2.5,
      preemptible_node: true,
      scheduler_enabled: true,
      nvidia_gpu: { count: 1, model: 'A100' },
    });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('lab');
    expect(presetIn(created.body, 'gpu-1')).toMatchObject({
      name: 'gpu-1',
      credits_per_hour: '2.5',
      scheduler_enabled: true,
      is_preemptible: true,
      resource_pool_names: ['gpu-pool'],
      nvidia_gpu: { count: 1, model: 'A100', memory: 40 * GB },
    });
    const [lab] = await loadClusters(s.ctx.clusterCatalog, ['lab']);
    expect(lab.presets.map((p) => p.name)).toContain('gpu-1');

    const dup = await post({ name: 'gpu-1', cpu: 4, memory: 16 * GB, preemptible_node: true });
    expect(dup.status).toBe(409);
    const edited = await call(s, 'PUT', `${PRESETS}/gpu-1`, admin, {
      ...base,
      name: 'cpu-2',
      cpu: 2,
    });
    expect(presetIn(edited.body, 'cpu-2')).toMatchObject({
      name: 'cpu-2',
      cpu: 2,
      resource_pool_names: ['cpu-pool'],
    });
    expect(presetIn(edited.body, 'gpu-1')).toBeUndefined();
    expect(
      (await call(s, 'GET', PRESETS, admin)).body.map((p: { name: string }) => p.name),
    ).toEqual(['cpu-2']);
    const deleted = await call(s, 'DELETE', `${PRESETS}/cpu-2`, admin);
    expect(deleted.status).toBe(200);
    expect(presetIn(deleted.body, 'cpu-2')).toBeUndefined();
    expect((await call(s, 'DELETE', `${PRESETS}/cpu-2`, admin)).status).toBe(404);
  });

  it('takes presets as both generations of the Apolo SDK write them', async () => {
    const sdk = {
      name: 'sdk-new',
      credits_per_hour: '3',
      cpu: 4,
      memory: 8 * GB,
      scheduler_enabled: false,
      preemptible_node: true,
      resource_pool_names: [],
      available_resource_pool_names: [],
      nvidia_gpu: { count: 2, model: 'A100', memory: null },
      amd_gpu: null,
      intel_gpu: null,
    };
    const created = await call(s, 'POST', PRESETS, admin, sdk);
    expect(created.status).toBe(201);
    expect(presetIn(created.body, 'sdk-new')).toMatchObject({
      resource_pool_names: ['gpu-pool'],
      nvidia_gpu: { count: 2, model: 'A100' },
    });
    const older = await call(s, 'POST', PRESETS, admin, {
      name: 'sdk-old',
      credits_per_hour: '1',
      cpu: 2,
      memory: 4 * GB,
      nvidia_gpu: 1,
      nvidia_gpu_model: 'A100',
      amd_gpu: null,
      intel_gpu: 0,
      scheduler_enabled: false,
      preemptible_node: true,
    });
    expect(older.status).toBe(201);
    expect(presetIn(older.body, 'sdk-old')).toMatchObject({
      nvidia_gpu: { count: 1, model: 'A100' },
    });
    for (const name of ['sdk-new', 'sdk-old']) await call(s, 'DELETE', `${PRESETS}/${name}`, admin);
  });

  it('edits a node pool with numbers given as strings, keeping min and max', async () => {
    const url = `${A}/clusters/lab/node_pools/cpu-pool`;
    const r = await call(s, 'PATCH', url, admin, {
      idle_size: '2',
      cpu_min_watts: '20',
      cpu_max_watts: '150',
      min_size: 9,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      idle_size: 2,
      cpu_min_watts: 20,
      cpu_max_watts: 150,
      min_size: 1,
      max_size: 3,
    });
    const tooIdle = await call(s, 'PATCH', url, admin, { idle_size: 3 });
    expect(tooIdle.body.errors).toEqual([
      { path: 'idle_size', message: 'Idle nodes cannot be more than 2' },
    ]);
    const nan = await call(s, 'PATCH', url, admin, { cpu_min_watts: 'hot' });
    expect(nan.body.errors).toEqual([
      { path: 'cpu_min_watts', message: 'Must be a non-negative number' },
    ]);
    const order = await call(s, 'PATCH', url, admin, { cpu_max_watts: 10 });
    expect(order.body.message).toBe('Maximum watts cannot be less than minimum watts');
  });

  it('reports the local pool’s live capacity from this machine and what jobs use', async () => {
    const r = await call(s, 'GET', `${A}/clusters/default/node_pools`, admin);
    expect(r.body).toHaveLength(1);
    expect(r.body[0].capacity).toMatchObject({ cpu: cpus().length, memory: totalmem() });
    expect(r.body[0].used).toEqual({ cpu: 0, memory: 0, nvidia_gpu: 0, amd_gpu: 0, intel_gpu: 0 });
    expect(await usedByJobs(s.ctx.db, 'lab')).toEqual({
      'cpu-pool': { cpu: 0, memory: 0, nvidia_gpu: 0, amd_gpu: 0, intel_gpu: 0 },
      'gpu-pool': { cpu: 0, memory: 0, nvidia_gpu: 0, amd_gpu: 0, intel_gpu: 0 },
    });
    const lab = await call(s, 'GET', `${A}/clusters/lab/node_pools`, admin);
    expect(lab.body.find((p: { name: string }) => p.name === 'gpu-pool').capacity).toMatchObject({
      cpu: 32,
      nvidia_gpu: 8,
    });
  });

  it('links organizations to a cluster with a jobs quota, empty or a number of at least 0', async () => {
    const url = `${A}/clusters/lab/orgs`;
    const bad = await call(s, 'POST', url, admin, {
      org_name: 'acme',
      quota: { total_running_jobs: '-1' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Jobs must be a positive number');
    // What the official client sends beside the quota: credits and defaults are refused by name.
    const sdk = { org_name: 'acme', quota: {}, default_quota: {}, default_role: 'user' };
    for (const [extra, path, message] of [
      [
        { balance: { credits: '20', spent_credits: '0' } },
        'balance.credits',
        ORG_CLUSTER_TEXTS.credits,
      ],
      [{ default_credits: '5' }, 'default_credits', ORG_CLUSTER_TEXTS.defaults],
      [
        { default_quota: { total_running_jobs: 2 } },
        'default_quota.total_running_jobs',
        ORG_CLUSTER_TEXTS.defaults,
      ],
      [{ default_role: 'manager' }, 'default_role', ORG_CLUSTER_TEXTS.defaults],
    ] as const) {
      const refused = await call(s, 'POST', url, admin, { ...sdk, ...extra });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toContainEqual({ path, message });
      expect((await call(s, 'PUT', `${url}/acme`, admin, { ...sdk, ...extra })).status).toBe(400);
    }
    const linked = await call(s, 'POST', url, admin, {
      org_name: 'acme',
      quota: { total_running_jobs: '5' },
    });
    expect(linked.body).toMatchObject({ org_name: 'acme', quota: { total_running_jobs: 5 } });
    expect((await call(s, 'POST', url, admin, { org_name: 'acme' })).status).toBe(409);
    const cleared = await call(s, 'PUT', `${url}/acme`, admin, {
      quota: { total_running_jobs: '' },
    });
    expect(cleared.body.quota.total_running_jobs).toBeNull();
    // The link opens the cluster to the organization's members.
    const config = await call(s, 'GET', '/api/v1/config', owner);
    expect(config.body.clusters.map((c: { name: string }) => c.name)).toContain('lab');
    expect((await call(s, 'DELETE', `${url}/acme`, admin)).status).toBe(204);
  });

  it('sets storage volume credits, seen in the cluster config', async () => {
    const r = await call(s, 'PATCH', `${A}/clusters/default/storage_volumes/default`, admin, {
      credits_per_hour_per_gb: '0.25',
    });
    expect(r.body).toEqual({ name: 'default', credits_per_hour_per_gb: '0.25' });
    const config = await call(s, 'GET', '/api/v1/config', owner);
    expect(config.body.clusters[0].storage_volumes).toEqual([
      { name: 'default', credits_per_hour_per_gb: '0.25' },
    ]);
    const bad = await call(s, 'PATCH', `${A}/clusters/default/storage_volumes/default`, admin, {
      credits_per_hour_per_gb: 'x',
    });
    expect(bad.status).toBe(400);
  });

  it('sets and adds to an organization’s credits', async () => {
    const url = `${A}/orgs/acme/balance`;
    expect((await call(s, 'PATCH', url, admin, { credits: '100' })).body.balance.credits).toBe(
      '100',
    );
    expect(
      (await call(s, 'PATCH', url, admin, { additional_credits: '25.5' })).body.balance.credits,
    ).toBe('125.5');
    expect(
      (await call(s, 'PATCH', url, admin, { credits: '1', additional_credits: '1' })).status,
    ).toBe(400);
    const orgs = await call(s, 'GET', '/api/v1/orgs', owner);
    expect(orgs.body.items[0].balance.credits).toBe('125.5');
    // Both changes are in the ledger, and its rows add up to the balance.
    const rows = await s.ctx.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.orgName, 'acme'))
      .orderBy(creditLedger.id);
    expect(rows.map((r) => [r.kind, Number(r.credits), Number(r.balanceAfter)])).toEqual([
      ['set', 100, 100],
      ['grant', 25.5, 125.5],
    ]);
  });

  it('creates a system user who gets a link to set a password, changes roles and deletes', async () => {
    const r = await call(s, 'POST', `${A}/users`, admin, {
      name: 'new-hire',
      email: 'hire@example.test',
      first_name: 'New',
      last_name: 'Hire',
    });
    expect(r.body).toMatchObject({
      name: 'new-hire',
      email: 'hire@example.test',
      first_name: 'New',
      last_name: 'Hire',
      role: 'user',
    });
    expect(mailsTo(s, 'hire@example.test')[0]).toContain('/oidc/reset?token=');
    expect(
      (await call(s, 'POST', `${A}/users`, admin, { name: 'new-hire', email: 'x@example.test' }))
        .status,
    ).toBe(409);
    expect((await call(s, 'PUT', `${A}/users/new-hire`, admin, { role: 'admin' })).body.role).toBe(
      'admin',
    );
    expect(
      (await call(s, 'PUT', `${A}/users/${admin.username}`, admin, { role: 'user' })).status,
    ).toBe(409);
    expect((await call(s, 'DELETE', `${A}/users/new-hire`, admin)).status).toBe(204);
    const names = (await call(s, 'GET', `${A}/users`, admin)).body.map(
      (u: { name: string }) => u.name,
    );
    expect(names).not.toContain('new-hire');
  });

  it('lists clusters and organizations', async () => {
    const cs = await call(s, 'GET', `${A}/clusters`, admin);
    expect(cs.body.map((c: { name: string }) => c.name)).toEqual(['default', 'lab']);
    const orgs = await call(s, 'GET', `${A}/orgs`, admin);
    expect(orgs.body).toContainEqual(expect.objectContaining({ name: 'acme', users_count: 1 }));
  });
});
