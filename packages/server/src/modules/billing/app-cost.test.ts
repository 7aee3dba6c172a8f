import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { APPS_V2 } from '@orrery/contract';
import { QUIET_JOBS, type TestServer, type TestUser } from '../../test/harness.js';
import { call, jobEnded, submitJob, tenantServer } from '../../test/fixtures.js';
import { jobs, usageRecords } from '../../db/schema.js';
import { insertAppInstance } from '../../test/apps.js';
import { chargeSubjectOf, instanceTag, revisionTag } from '../apps/store.js';
import { charge } from '../jobs/accounting.js';
import { chargeableJob } from '../../test/billing.js';

/** An app instance's cost on its page is what metering recorded for its jobs under apps. */
describe("an app instance's credits", () => {
  let s: TestServer;
  let owner: TestUser;
  // The jobs loop leaves the rows alone: only the charges below touch them.
  tenantServer((x) => ({ s, owner } = x), {}, QUIET_JOBS);

  it('sums the usage rows of every job it ran; per hour, the jobs it runs now', async () => {
    const instance = await insertAppInstance(s, owner, {
      name: 'costly-notebook',
      displayName: 'Costly notebook',
      revision: 2,
    });
    const started = new Date('2026-11-01T10:00:00Z');
    const job = (revision: number, status: string, price: string) =>
      chargeableJob(owner, {
        status,
        pricePerHour: price,
        startedAt: started,
        tags: [instanceTag(instance!.id), revisionTag(revision)],
      });
    // The first revision ran an hour at 0.05; the current one has run 90 minutes at 0.4.
    const [old, current] = await s.ctx.db
      .insert(jobs)
      .values([job(1, 'succeeded', '0.0500'), job(2, 'running', '0.4000')])
      .returning();
    await charge(s.ctx.db, old!, new Date(started.getTime() + 3_600_000), chargeSubjectOf);
    const [now] = await s.ctx.db.select().from(jobs).where(eq(jobs.id, current!.id));
    await charge(s.ctx.db, now!, new Date(started.getTime() + 3_600_000), chargeSubjectOf);
    const [later] = await s.ctx.db.select().from(jobs).where(eq(jobs.id, current!.id));
    await charge(s.ctx.db, later!, new Date(started.getTime() + 5_400_000), chargeSubjectOf);

    const rows = await s.ctx.db
      .select()
      .from(usageRecords)
      .where(eq(usageRecords.resourceId, 'costly-notebook'));
    expect(rows.map((r) => r.category)).toEqual(['apps', 'apps', 'apps']);
    const metered = rows.reduce((n, r) => n + Number(r.credits), 0);
    expect(metered).toBeCloseTo(0.05 + 0.6, 4);

    const r = await call(s, 'GET', `${APPS_V2}/instances/${instance!.id}`, owner);
    expect(r.status).toBe(200);
    expect(r.body.credits_so_far).toBe(metered.toFixed(4));
    expect(r.body.credits_per_hour).toBe('0.4000');
  });
});

/** app.ts hands the jobs service apps' charge subject: the server's own charges use it. */
describe("an app instance's job charged by the server", () => {
  let s: TestServer;
  let owner: TestUser;

  tenantServer((x) => ({ s, owner } = x));

  it('is recorded under apps, named by the instance; a plain job under jobs', async () => {
    const instance = await insertAppInstance(s, owner, {
      name: 'charged-notebook',
      displayName: 'Charged notebook',
    });
    const app = await submitJob(s, owner, 'sleep 1', { tags: [instanceTag(instance!.id)] });
    const plain = await submitJob(s, owner, 'sleep 1');
    await jobEnded(s, owner, app);
    await jobEnded(s, owner, plain);
    const usage = async (id: string) => {
      const uri = `job://default/acme/vision/${id}`;
      for (let i = 0; i < 200; i++) {
        const rows = await s.ctx.db
          .select()
          .from(usageRecords)
          .where(eq(usageRecords.resourceUri, uri));
        if (rows.length > 0) return rows;
        await new Promise((done) => setTimeout(done, 50));
      }
      throw new Error(`no usage recorded for ${id}`);
    };
    expect((await usage(app)).map((r) => [r.category, r.resourceId])).toContainEqual([
      'apps',
      'charged-notebook',
    ]);
    expect((await usage(plain)).map((r) => [r.category, r.resourceId])).toContainEqual([
      'jobs',
      plain,
    ]);
  });
});
