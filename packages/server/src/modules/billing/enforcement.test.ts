import { existsSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, joinOrg, JOB_SCOPE, projectMember, tenantServer } from '../../test/fixtures.js';
import { orgMembers, organizations, presets, usageRecords } from '../../db/schema.js';
import { invalidateCatalog } from '../clusters/store.js';
import {
  deployInput,
  install,
  stateIs,
  until as appUntil,
  TINY_SERVER,
  V1,
} from '../../test/apps.js';

/** One credit a second: charges of a few seconds are far above the columns' 0.0001. */
const RATE = 3600;

interface Job {
  id: string;
  uri: string;
  status: string;
  total_price_credits: string;
  price_credits_per_hour: string;
  history: { run_time_seconds: number; finished_at: string | null };
  statuses: { status: string; reason: string | null; description: string | null }[];
}

describe.skipIf(!existsSync('/usr/bin/bwrap'))(
  'charges and exhaustion of running jobs and apps',
  () => {
    let s: TestServer;
    let owner: TestUser;
    // Charges and enforcement every half second, so that the tests take seconds, not minutes.
    tenantServer(
      (x) => ({ s, owner } = x),
      { ORRERY_RUNTIME: 'process' },
      { listen: true, jobs: { billEveryMs: 500, enforceEveryMs: 500 }, apps: { tickMs: 100 } },
    );
    beforeAll(async () => {
      await s.ctx.db.insert(presets).values({
        clusterName: 'default',
        name: 'metered',
        cpu: 0.1,
        memory: 128 * 2 ** 20,
        creditsPerHour: String(RATE),
        resourcePoolNames: ['local'],
      });
      invalidateCatalog(s.ctx.clusterCatalog);
    });

    const submit = (who: TestUser, command: string) =>
      call(s, 'POST', '/api/v1/jobs?from_preset', who, {
        ...JOB_SCOPE,
        preset_name: 'metered',
        image: 'busybox',
        command,
      });
    const run = async (who: TestUser, command: string) => {
      const r = await submit(who, command);
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      return r.body as Job;
    };
    const until = async (id: string, statuses: string[]): Promise<Job> => {
      for (let i = 0; i < 600; i++) {
        const j = (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body as Job;
        if (statuses.includes(j.status)) return j;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`job ${id} never reached ${statuses.join('/')}`);
    };
    const orgCredits = async () =>
      (await s.ctx.db.select().from(organizations).where(eq(organizations.name, 'acme')))[0]!
        .credits;
    const setOrgCredits = (credits: string | null) =>
      s.ctx.db.update(organizations).set({ credits }).where(eq(organizations.name, 'acme'));

    it('charges a job that ran N seconds N × rate / 3600, a charge at a time', async () => {
      await setOrgCredits('1000');
      const j = await run(owner, 'sleep 3');
      expect(j.price_credits_per_hour).toBe('3600.0000');
      const ended = await until(j.id, ['succeeded', 'failed']);
      expect(ended.status).toBe('succeeded');
      // The last charge is written just after the final status: wait until it covers the end.
      const end = new Date(ended.history.finished_at!).getTime();
      const charged = async () =>
        (await s.ctx.db.select().from(usageRecords).where(eq(usageRecords.resourceUri, ended.uri)))
          .map((r) => r.endedAt.getTime())
          .some((t) => t >= end);
      await vi.waitFor(async () => expect(await charged()).toBe(true), { timeout: 10_000 });
      const done = (await call(s, 'GET', `/api/v1/jobs/${j.id}`, owner)).body as Job;
      const seconds = done.history.run_time_seconds;
      expect(seconds).toBeGreaterThan(2.5);
      const expected = (seconds * RATE) / 3600;
      expect(Math.abs(Number(done.total_price_credits) - expected) / expected).toBeLessThan(0.01);
      const rows = await s.ctx.db
        .select()
        .from(usageRecords)
        .where(eq(usageRecords.resourceUri, done.uri));
      // Charged while it ran, not only at its end; the rows add up to the job's total.
      expect(rows.length).toBeGreaterThan(2);
      const sum = rows.reduce((n, r) => n + Number(r.credits), 0);
      expect(sum).toBeCloseTo(Number(done.total_price_credits), 4);
      expect(Number(await orgCredits())).toBeCloseTo(1000 - sum, 4);
    });

    it("stops an organization's running job with QuotaExhausted when its credits reach 0, and refuses new work", async () => {
      await setOrgCredits('2');
      const j = await run(owner, 'sleep 60');
      const stopped = await until(j.id, ['cancelled', 'failed', 'succeeded']);
      expect(stopped.status).toBe('cancelled');
      expect(stopped.statuses.at(-1)).toMatchObject({
        status: 'cancelled',
        reason: 'QuotaExhausted',
        description: 'No credits left for organization acme',
      });
      // Stopped within a charge and an enforcement period of the balance reaching 0.
      expect(Number(stopped.total_price_credits)).toBeGreaterThanOrEqual(2);
      expect(Number(stopped.total_price_credits)).toBeLessThan(2 + 3);
      expect(Number(await orgCredits())).toBeLessThanOrEqual(0);
      const refused = await submit(owner, 'true');
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('No credits left for organization acme');
    });

    it('stops only the work of a member whose own limit reached 0', async () => {
      await setOrgCredits(null);
      const member = await joinOrg(s, await projectMember(s, 'writer'), 'user');
      await s.ctx.db
        .update(orgMembers)
        .set({ credits: '1.5' })
        .where(eq(orgMembers.userId, member.id));
      const theirs = await run(member, 'sleep 60');
      const mine = await run(owner, 'sleep 60');
      const stopped = await until(theirs.id, ['cancelled', 'failed', 'succeeded']);
      expect(stopped.statuses.at(-1)).toMatchObject({
        status: 'cancelled',
        reason: 'QuotaExhausted',
        description: `No credits left for user ${member.username} in organization acme`,
      });
      // The organization is unlimited: the owner's job goes on, and only the member is refused.
      expect((await until(mine.id, ['running', 'cancelled'])).status).toBe('running');
      const refused = await submit(member, 'true');
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(
        `No credits left for user ${member.username} in organization acme`,
      );
      expect((await call(s, 'DELETE', `/api/v1/jobs/${mine.id}`, owner)).status).toBe(204);
    });

    it('charges an app under apps, named by its instance, stops it when credits run out and refuses a new one', async () => {
      await setOrgCredits('1000');
      const r = await install(s, owner, {
        template_name: 'orrery-deploy',
        display_name: 'Billed app',
        input: deployInput(TINY_SERVER, { preset: { name: 'metered' } }),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      await appUntil(s, owner, r.body.id, stateIs('healthy'));
      const charged = async () =>
        s.ctx.db.select().from(usageRecords).where(eq(usageRecords.resourceId, r.body.name));
      for (let i = 0; i < 100 && (await charged()).length === 0; i++) {
        await new Promise((ok) => setTimeout(ok, 100));
      }
      const rows = await charged();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((u) => u.category === 'apps' && u.projectName === 'vision')).toBe(true);

      await setOrgCredits('0');
      const errored = await appUntil(s, owner, r.body.id, stateIs('errored'));
      expect(errored.state).toBe('errored');
      const events = await call(s, 'GET', `${V1}/instances/${r.body.id}/events`, owner);
      expect(events.body.items[0]).toMatchObject({ state: 'errored', reason: 'QuotaExhausted' });
      const refused = await install(s, owner, {
        template_name: 'orrery-deploy',
        display_name: 'Refused app',
        input: deployInput(TINY_SERVER, { preset: { name: 'metered' } }),
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('No credits left for organization acme');
    });
  },
);
