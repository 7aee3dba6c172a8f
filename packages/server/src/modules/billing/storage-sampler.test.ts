import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenantServer } from '../../test/fixtures.js';
import { clusters, organizations, usageRecords } from '../../db/schema.js';
import { storageBackendOf } from '../storage/routes.js';
import { sampleStorage, volumeOf } from './storage-sampler.js';

const HOUR = new Date('2026-11-01T10:00:00Z');
const inHour = (h: number, minutes = 0) =>
  new Date(HOUR.getTime() + h * 3_600_000 + minutes * 60_000);

describe('storage charges', () => {
  let s: TestServer;
  let owner: TestUser;
  tenantServer((x) => ({ s, owner } = x), {}, { billing: { storageCheckMs: Infinity } });
  beforeAll(async () => {
    expect(
      (
        await call(s, 'POST', '/api/v1/projects', owner, {
          name: 'archive',
          org_name: 'acme',
          cluster_name: 'default',
        })
      ).status,
    ).toBe(201);
  });

  const upload = async (project: string, path: string, bytes: number) => {
    const r = await s.app.inject({
      method: 'PUT',
      url: `/api/v1/storage/acme/${project}/${path}?op=CREATE`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(bytes, 7),
    });
    expect(r.statusCode, r.body).toBe(201);
  };
  const rows = (project: string) =>
    s.ctx.db
      .select()
      .from(usageRecords)
      .where(eq(usageRecords.resourceUri, `storage://default/acme/${project}`));
  const balance = async () =>
    Number(
      (await s.ctx.db.select().from(organizations).where(eq(organizations.name, 'acme')))[0]!
        .credits,
    );

  it('matches a project to its volume as Apolo does: /org/project, /org, the default', () => {
    const v = (name: string, path?: string) => ({ name, creditsPerHourPerGb: '1', path });
    const volumes = [v('default'), v('org', '/acme'), v('proj', '/acme/vision')];
    expect(volumeOf(volumes, 'acme', 'vision')?.name).toBe('proj');
    expect(volumeOf(volumes, 'acme', 'archive')?.name).toBe('org');
    expect(volumeOf(volumes, 'other', 'vision')?.name).toBe('default');
  });

  it("charges each project's GB-hours at its volume's price, once per hour", async () => {
    await s.ctx.db
      .update(clusters)
      .set({
        storageVolumes: [
          { name: 'default', creditsPerHourPerGb: '10' },
          { name: 'cold', creditsPerHourPerGb: '2', path: '/acme/archive' },
        ],
      })
      .where(eq(clusters.name, 'default'));
    await s.ctx.db
      .update(organizations)
      .set({ credits: '100' })
      .where(eq(organizations.name, 'acme'));
    await upload('vision', 'data/a.bin', 2_000_000);
    await upload('vision', 'data/deeper/b.bin', 1_000_000);
    await upload('archive', 'old.bin', 5_000_000);
    const files = await storageBackendOf(s.ctx);

    // 0.003 GB × 1 h × 10 and 0.005 GB × 1 h × 2.
    expect(await sampleStorage(s.ctx.db, files, inHour(0, 5))).toBe(2);
    expect(await rows('vision')).toMatchObject([
      {
        category: 'storage',
        resourceId: 'default',
        projectName: 'vision',
        userId: null,
        startedAt: inHour(0),
        endedAt: inHour(1),
        credits: '0.0300',
      },
    ]);
    expect(await rows('archive')).toMatchObject([{ resourceId: 'cold', credits: '0.0100' }]);
    expect(await balance()).toBeCloseTo(100 - 0.04, 4);

    // Sampled again in the same hour (another replica, a restart): nothing more.
    expect(await sampleStorage(s.ctx.db, files, inHour(0, 40))).toBe(0);
    expect(await balance()).toBeCloseTo(100 - 0.04, 4);

    // The next hour sees what is there then.
    await upload('vision', 'data/c.bin', 3_000_000);
    expect(await sampleStorage(s.ctx.db, files, inHour(1, 1))).toBe(2);
    expect((await rows('vision')).map((r) => r.credits).sort()).toEqual(['0.0300', '0.0600']);
    expect(await balance()).toBeCloseTo(100 - 0.04 - 0.07, 4);
  });

  it("answers the storage charges to Apolo's usage call, as a Python client sends it", async () => {
    // A pydantic request model dumps unset filters as null, and may name a bare date.
    const usage = await call(s, 'POST', '/api/v1/metrics/credits/usage', owner, {
      start_date: '2026-11-01',
      end_date: '2026-11-02T00:00:00+00:00',
      category_name: 'storage',
      org_name: null,
      project_name: null,
    });
    expect(usage.status, JSON.stringify(usage.body)).toBe(200);
    expect(usage.body).toEqual([
      {
        category_name: 'storage',
        org_name: 'acme',
        project_name: 'archive',
        user_name: null,
        resource_id: 'cold',
        credits: '0.0200',
      },
      {
        category_name: 'storage',
        org_name: 'acme',
        project_name: 'vision',
        user_name: null,
        resource_id: 'default',
        credits: '0.0900',
      },
    ]);
    const jobs = await call(s, 'POST', '/api/v1/metrics/credits/usage', owner, {
      start_date: '2026-11-01',
      end_date: '2026-11-02',
      category_name: 'jobs',
      org_name: 'acme',
      project_name: null,
    });
    expect(jobs.body).toEqual([]);
    const bad = await call(s, 'POST', '/api/v1/metrics/credits/usage', owner, {
      start_date: '2026-11-01',
      end_date: '2026-11-02',
      category_name: 'files',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('category_name');
  });
});
