import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, joinOrg, tenantServer } from '../../test/fixtures.js';
import { disks, orgMembers, organizations, usageRecords } from '../../db/schema.js';
import { sampleDisks } from './disk-sampler.js';

const HOUR = new Date('2026-11-01T10:00:00Z');
const inHour = (h: number, minutes = 0) =>
  new Date(HOUR.getTime() + h * 3_600_000 + minutes * 60_000);
const PRICE = '/apis/admin/v1/clusters/default/disk_price';

describe('disk charges', () => {
  let s: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  tenantServer((x) => ({ s, owner } = x), {}, { billing: { storageCheckMs: Infinity } });
  beforeAll(async () => {
    admin = await s.user({ systemRole: 'admin' });
  });

  const makeDisk = async (who: TestUser, storage: number, name: string | null) => {
    const r = await call(s, 'POST', '/api/v1/disk', who, {
      org_name: 'acme',
      project_name: 'vision',
      storage,
      name,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body as { id: string; uri: string };
  };
  const rowsOf = (uri: string) =>
    s.ctx.db.select().from(usageRecords).where(eq(usageRecords.resourceUri, uri));
  const balance = async () =>
    Number(
      (await s.ctx.db.select().from(organizations).where(eq(organizations.name, 'acme')))[0]!
        .credits,
    );

  it('lets system administrators set the price per GB-day, seen in the cluster config', async () => {
    expect((await call(s, 'GET', PRICE, admin)).body).toEqual({ credits_per_day_per_gb: '0.0000' });
    expect((await call(s, 'PATCH', PRICE, owner, { credits_per_day_per_gb: '1' })).status).toBe(
      403,
    );
    const bad = await call(s, 'PATCH', PRICE, admin, { credits_per_day_per_gb: '-1' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('credits_per_day_per_gb');
    const set = await call(s, 'PATCH', PRICE, admin, { credits_per_day_per_gb: '2.4' });
    expect(set.body).toEqual({ credits_per_day_per_gb: '2.4000' });
    const config = await call(s, 'GET', '/api/v1/config', owner);
    expect(config.body.clusters[0].disk_price).toEqual({ credits_per_day_per_gb: '2.4000' });
  });

  it("charges each ready disk's size at a 24th of the day's price every hour, once", async () => {
    await call(s, 'PATCH', PRICE, admin, { credits_per_day_per_gb: '2.4' });
    await s.ctx.db
      .update(organizations)
      .set({ credits: '100' })
      .where(eq(organizations.name, 'acme'));
    const named = await makeDisk(owner, 5_000_000_000, 'scratch');
    const unnamed = await makeDisk(owner, 500_000_000, null);

    // 5 GB × 2.4 / 24 = 0.5 an hour; 0.5 GB: 0.05.
    expect(await sampleDisks(s.ctx.db, inHour(0, 5))).toBe(2);
    expect(await rowsOf(named.uri)).toMatchObject([
      {
        category: 'disks',
        resourceId: 'scratch',
        projectName: 'vision',
        userId: owner.id,
        startedAt: inHour(0),
        endedAt: inHour(1),
        credits: '0.5000',
      },
    ]);
    expect(await rowsOf(unnamed.uri)).toMatchObject([
      { resourceId: unnamed.id, credits: '0.0500' },
    ]);
    expect(await balance()).toBeCloseTo(100 - 0.55, 4);

    // Sampled again in the same hour (another replica, a restart): nothing more.
    expect(await sampleDisks(s.ctx.db, inHour(0, 50))).toBe(0);
    expect(await balance()).toBeCloseTo(100 - 0.55, 4);

    // A day of the named disk costs its price per day: 5 GB × 2.4.
    for (let h = 1; h < 24; h += 1) await sampleDisks(s.ctx.db, inHour(h, 1));
    const day = (await rowsOf(named.uri)).reduce((n, r) => n + Number(r.credits), 0);
    expect(day).toBeCloseTo(12, 4);
  });

  it("takes a disk's cost from its owner's own limit; free clusters write nothing", async () => {
    const member = await s.user();
    await joinOrg(s, member, 'user');
    await s.ctx.db
      .update(orgMembers)
      .set({ credits: '10' })
      .where(eq(orgMembers.userId, member.id));
    const disk = await makeDisk(owner, 1_000_000_000, 'mine');
    // Made by the owner, handed to the member: the member's limit pays for it.
    await s.ctx.db.update(disks).set({ ownerId: member.id }).where(eq(disks.id, disk.id));
    expect(await sampleDisks(s.ctx.db, inHour(30))).toBeGreaterThan(0);
    const [limit] = await s.ctx.db
      .select({ credits: orgMembers.credits })
      .from(orgMembers)
      .where(eq(orgMembers.userId, member.id));
    expect(Number(limit!.credits)).toBeCloseTo(10 - 0.1, 4);

    await call(s, 'PATCH', PRICE, admin, { credits_per_day_per_gb: '0' });
    expect(await sampleDisks(s.ctx.db, inHour(31))).toBe(0);
    expect(await rowsOf(disk.uri)).toHaveLength(1);
  });
});
