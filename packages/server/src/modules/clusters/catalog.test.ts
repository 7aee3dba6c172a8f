import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { presets } from '../../db/schema.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { CATALOG_TTL_MS, invalidateCatalog, loadClusters } from './store.js';

describe('cluster catalog', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.stop());

  const presetCpu = async (on: TestServer = s) =>
    (await loadClusters(on.ctx.clusterCatalog, ['default']))[0].presets.find(
      (p) => p.name === 'cpu-small',
    )!.cpu;

  it('serves a change made elsewhere after its TTL, and at once after an invalidation', async () => {
    const before = await presetCpu();
    await s.ctx.db.update(presets).set({ cpu: 0.25 }).where(eq(presets.name, 'cpu-small'));
    expect(await presetCpu()).toBe(before);
    invalidateCatalog(s.ctx.clusterCatalog);
    expect(await presetCpu()).toBe(0.25);

    await s.ctx.db.update(presets).set({ cpu: 0.3 }).where(eq(presets.name, 'cpu-small'));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + CATALOG_TTL_MS + 1);
    try {
      expect(await presetCpu()).toBe(0.3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is each server’s own: a change on one server is not served by another', async () => {
    const other = await startTestServer();
    try {
      const theirs = await presetCpu(other);
      expect(theirs).not.toBe(0.375);
      await s.ctx.db.update(presets).set({ cpu: 0.375 }).where(eq(presets.name, 'cpu-small'));
      invalidateCatalog(s.ctx.clusterCatalog);
      expect(await presetCpu()).toBe(0.375);
      expect(await presetCpu(other)).toBe(theirs);
    } finally {
      await other.stop();
    }
  });

  it('returns only the clusters asked for, with no unknown names', async () => {
    expect(
      (await loadClusters(s.ctx.clusterCatalog, ['nope', 'default'])).map((c) => c.cluster.name),
    ).toEqual(['default']);
  });
});
