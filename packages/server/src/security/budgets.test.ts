import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageRecords } from '../db/schema.js';
import { startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { call, joinOrg, projectMember, tenancy } from '../test/fixtures.js';
import { MID_NOVEMBER, budgetAlerts, inNovember } from '../test/billing.js';
import { checkBudgets } from '../modules/billing/budgets.js';
import { budgets } from '../modules/billing/tables.js';

const API = '/apis/billing/v1/orgs';

describe('budgets of 0 credits', () => {
  let s: TestServer;
  let owner: TestUser;
  let manager: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    s = await startTestServer({}, { billing: { budgetCheckMs: Infinity } });
    ({ owner } = await tenancy(s, 'acme', 'vision'));
    manager = await joinOrg(s, await s.user(), 'manager');
    member = await projectMember(s, 'writer');
    await joinOrg(s, member, 'user');
    // Usage of a fixed month, read in that month (inNovember): the test holds on any date.
    const now = MID_NOVEMBER;
    await s.ctx.db.insert(usageRecords).values({
      category: 'jobs',
      clusterName: 'default',
      orgName: 'acme',
      projectName: 'vision',
      userId: null,
      resourceUri: 'job://default/acme/vision/job-1',
      resourceId: 'job-1',
      startedAt: now,
      endedAt: new Date(now.getTime() + 60_000),
      credits: '3',
    });
  });
  afterAll(() => s?.stop());

  it('a budget of 0.00001 credits is refused (400 naming the precision), and a budget stored as 0 breaks no budget call nor mail', () =>
    inNovember(async () => {
      // The manager's tiny budget would be rounded to 0 by the column: refused, nothing stored.
      for (const credits of [0.00001, 1.23456, 1e-7]) {
        const r = await call(s, 'PUT', `${API}/acme/budgets/vision`, manager, { credits });
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(r.body.message).toBe(
          'Budget must be a multiple of 0.0001 credits: budgets are stored with 4 decimal places',
        );
        expect(r.body.errors[0].path).toBe('credits');
      }
      expect((await call(s, 'GET', `${API}/acme/budgets`, owner)).body.items).toEqual([]);
      // The smallest budget the column holds is taken as it is.
      const smallest = await call(s, 'PUT', `${API}/acme/budgets`, manager, { credits: 0.0001 });
      expect(smallest.status).toBe(200);
      expect(smallest.body).toMatchObject({ credits: '0.0001', percent: 1_000_000, crossed: 100 });

      // A budget stored as 0 by an older server: every budget call still answers.
      await s.ctx.db
        .insert(budgets)
        .values({ orgName: 'acme', projectName: 'vision', credits: '0', thresholds: [50, 100] });
      const listed = await call(s, 'GET', `${API}/acme/budgets`, manager);
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      const zero = listed.body.items.find((b: { project_name: string }) => b.project_name);
      expect(zero).toMatchObject({ credits: '0.0000', spent: '3.0000', crossed: 100 });
      expect(Number.isFinite(zero.percent)).toBe(true);
      for (const who of [owner, manager, member]) {
        const banner = await call(s, 'GET', `${API}/acme/budget_alerts`, who);
        expect(banner.status, JSON.stringify(banner.body)).toBe(200);
        expect(banner.body.items.length).toBeGreaterThan(0);
      }
      // The managers' mails say what happened, never Infinity% or NaN%.
      await checkBudgets({ db: s.ctx.db, mailer: s.ctx.mailer, publicUrl: s.url });
      const mails = budgetAlerts(s).filter((m) => m.includes('project vision of acme'));
      expect(mails.length).toBeGreaterThan(0);
      for (const m of mails) {
        expect(m).not.toMatch(/Infinity|NaN/);
        expect(m).toContain('the budget is 0 credits');
      }
    }));
});
