import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { engine, QUIET_JOBS, type TestServer, type TestUser } from '../../test/harness.js';
import { twoReplicas, tenantServer } from '../../test/fixtures.js';
import { clusters, jobs, organizations, usageRecords } from '../../db/schema.js';
import { storageBackendOf } from '../storage/routes.js';
import { sampleStorage } from './storage-sampler.js';
import { charge } from '../jobs/accounting.js';
import { chargeableJob } from '../../test/billing.js';
import type { JobRow } from '../jobs/store.js';
import { creditLedger } from './tables.js';

const RATE = 3.6; // credits per hour: 0.001 a second
const T0 = new Date('2026-11-01T10:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** A job that has run since T0 on a preset of RATE credits an hour, charged by nobody yet. */
async function runningJob(s: TestServer, owner: TestUser): Promise<JobRow> {
  const [row] = await s.ctx.db
    .insert(jobs)
    .values(chargeableJob(owner, { pricePerHour: String(RATE), startedAt: T0 }))
    .returning();
  return row!;
}

const jobRow = async (s: TestServer, id: string) =>
  (await s.ctx.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
const usageOf = (s: TestServer, id: string) =>
  s.ctx.db.select().from(usageRecords).where(eq(usageRecords.resourceId, id));
const balance = async (s: TestServer) =>
  Number(
    (await s.ctx.db.select().from(organizations).where(eq(organizations.name, 'acme')))[0]!.credits,
  );
const setBalance = (s: TestServer, credits: string) =>
  s.ctx.db.update(organizations).set({ credits }).where(eq(organizations.name, 'acme'));

describe('idempotent accrual', () => {
  let s: TestServer;
  let owner: TestUser;
  tenantServer((x) => ({ s, owner } = x), {}, QUIET_JOBS);

  it('charges a period once when two charges start from the same row', async () => {
    await setBalance(s, '100');
    const job = await runningJob(s, owner);
    // Both hold the row as read before either charged (two loops, or a stale read).
    const charged = await Promise.all([
      charge(s.ctx.db, job, at(60)),
      charge(s.ctx.db, job, at(60)),
    ]);
    expect(charged.filter((c) => c > 0)).toHaveLength(1);
    expect(charged[0]! + charged[1]!).toBeCloseTo(0.06, 6);
    expect(await usageOf(s, job.id)).toHaveLength(1);
    expect(await balance(s)).toBeCloseTo(100 - 0.06, 4);
    // A later charge from the stale row is refused too; one from the fresh row goes on.
    expect(await charge(s.ctx.db, job, at(120))).toBe(0);
    expect(await charge(s.ctx.db, await jobRow(s, job.id), at(120))).toBeCloseTo(0.06, 6);
    const rows = await usageOf(s, job.id);
    expect(rows.map((r) => [r.startedAt.getTime(), r.endedAt.getTime()]).sort()).toEqual([
      [at(0).getTime(), at(60).getTime()],
      [at(60).getTime(), at(120).getTime()],
    ]);
    expect((await jobRow(s, job.id)).totalPrice).toBe('0.1200');
    expect(await balance(s)).toBeCloseTo(100 - 0.12, 4);
  });

  it('loses nothing when a charge fails before its commit: the next one covers the period', async () => {
    await setBalance(s, '100');
    const job = await runningJob(s, owner);
    // The ledger write fails, as a crash between the usage row and the commit would.
    await s.ctx.db.execute(sql`
      create function refuse_ledger() returns trigger language plpgsql as
        $$ begin raise exception 'interrupted'; end $$`);
    await s.ctx.db.execute(sql`
      create trigger interrupt before insert on credit_ledger
        for each row execute function refuse_ledger()`);
    try {
      await expect(charge(s.ctx.db, job, at(60))).rejects.toThrow();
    } finally {
      await s.ctx.db.execute(sql`drop trigger interrupt on credit_ledger`);
      await s.ctx.db.execute(sql`drop function refuse_ledger`);
    }
    // Nothing of the failed charge stayed: no usage, no ledger row, the job not moved on.
    expect(await usageOf(s, job.id)).toHaveLength(0);
    expect((await jobRow(s, job.id)).billedUntil).toBeNull();
    expect(await balance(s)).toBe(100);
    // The retry (the next charge, here after a restart reading the row again) charges it all.
    expect(await charge(s.ctx.db, await jobRow(s, job.id), at(90))).toBeCloseTo(0.09, 6);
    const rows = await usageOf(s, job.id);
    expect(rows.map((r) => [r.startedAt.getTime(), r.endedAt.getTime()])).toEqual([
      [at(0).getTime(), at(90).getTime()],
    ]);
    expect(await balance(s)).toBeCloseTo(100 - 0.09, 4);
    const ledger = await s.ctx.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.reference, rows[0]!.resourceUri));
    expect(ledger.map((r) => r.credits)).toEqual(['-0.0900']);
  });
});

/** Two servers on one PostgreSQL database, each charging the same running job at once. */
describe.skipIf(engine !== 'postgres')('idempotent accrual, on two replicas', () => {
  const r = twoReplicas(QUIET_JOBS);

  it('charges a job once when both replicas charge it at the same moment', async () => {
    await setBalance(r.a, '100');
    const job = await runningJob(r.a, r.owner);
    for (let i = 0; i < 5; i++) {
      const until = at(60 * (i + 1));
      const [a, b] = await Promise.all([
        jobRow(r.a, job.id).then((j) => charge(r.a.ctx.db, j, until)),
        jobRow(r.b, job.id).then((j) => charge(r.b.ctx.db, j, until)),
      ]);
      expect([a, b].filter((c) => c > 0)).toHaveLength(1);
    }
    expect(await usageOf(r.b, job.id)).toHaveLength(5);
    expect((await jobRow(r.b, job.id)).totalPrice).toBe('0.3000');
    expect(await balance(r.b)).toBeCloseTo(100 - 0.3, 4);
  });

  it("charges a project's storage once when both replicas sample the same hour at once", async () => {
    await setBalance(r.a, '100');
    await r.a.ctx.db
      .update(clusters)
      .set({ storageVolumes: [{ name: 'default', creditsPerHourPerGb: '1000' }] })
      .where(eq(clusters.name, 'default'));
    const [filesA, filesB] = await Promise.all([
      storageBackendOf(r.a.ctx),
      storageBackendOf(r.b.ctx),
    ]);
    for (const files of [filesA, filesB]) {
      await files.mkdirs(['default', 'acme', 'vision']);
      await files.create(
        ['default', 'acme', 'vision', 'a.bin'],
        Readable.from([Buffer.alloc(1000)]),
      );
    }
    const counts = await Promise.all([
      sampleStorage(r.a.ctx.db, filesA, at(30)),
      sampleStorage(r.b.ctx.db, filesB, at(30)),
    ]);
    expect(counts[0] + counts[1]).toBe(1);
    const rows = await r.b.ctx.db
      .select()
      .from(usageRecords)
      .where(eq(usageRecords.resourceUri, 'storage://default/acme/vision'));
    // 10⁻⁶ GB × 1 h × 1000.
    expect(rows.map((u) => u.credits)).toEqual(['0.0010']);
    expect(await balance(r.b)).toBeCloseTo(100 - 0.001, 4);
  });
});

if (engine !== 'postgres') {
  describe('idempotent accrual, on two replicas', () => {
    it.skip('needs PostgreSQL (TEST_DATABASE_URL): PGlite is one process, so one replica', () => {});
  });
}
