import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageRecords } from '../../db/schema.js';
import { engine, startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, joinOrg, projectMember, tenancy, twoReplicas } from '../../test/fixtures.js';
import { MID_NOVEMBER, budgetAlerts, inNovember } from '../../test/billing.js';
import { checkBudgets } from './budgets.js';

const API = '/apis/billing/v1/orgs';

/** A job's usage in acme, as metering writes it. */
const usage = (s: TestServer, at: string, credits: string, project = 'vision') =>
  s.ctx.db.insert(usageRecords).values({
    category: 'jobs',
    clusterName: 'default',
    orgName: 'acme',
    projectName: project,
    userId: null,
    resourceUri: `job://default/acme/${project}/job-${at}`,
    resourceId: `job-${at}`,
    startedAt: new Date(at),
    endedAt: new Date(new Date(at).getTime() + 60_000),
    credits,
  });

const check = (s: TestServer, now = MID_NOVEMBER) =>
  checkBudgets({ db: s.ctx.db, mailer: s.ctx.mailer, publicUrl: s.url }, now);

describe('budgets', () => {
  let s: TestServer;
  let owner: TestUser;
  let manager: TestUser;
  let member: TestUser;
  let reader: TestUser;
  let rival: TestUser;

  beforeAll(async () => {
    s = await startTestServer({}, { billing: { budgetCheckMs: Infinity } });
    ({ owner } = await tenancy(s, 'acme', 'vision'));
    ({ owner: rival } = await tenancy(s, 'rival', 'vision'));
    manager = await joinOrg(s, await s.user({ username: 'mona' }), 'manager');
    member = await joinOrg(s, await s.user(), 'user');
    reader = await projectMember(s, 'reader');
    await joinOrg(s, reader, 'user');
  });
  afterAll(() => s?.stop());

  it('sets, lists, changes and removes budgets with default thresholds', async () => {
    const put = await call(s, 'PUT', `${API}/acme/budgets`, owner, { credits: 500 });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      org_name: 'acme',
      project_name: null,
      credits: '500.0000',
      thresholds: [50, 90, 100],
      spent: '0.0000',
      percent: 0,
      crossed: null,
    });
    const project = await call(s, 'PUT', `${API}/acme/budgets/vision`, manager, {
      credits: 100,
      thresholds: [75, 100],
    });
    expect(project.body).toMatchObject({ project_name: 'vision', thresholds: [75, 100] });
    const changed = await call(s, 'PUT', `${API}/acme/budgets/vision`, manager, {
      credits: 80,
      thresholds: [80],
    });
    expect(changed.body).toMatchObject({ credits: '80.0000', thresholds: [80] });
    const list = await call(s, 'GET', `${API}/acme/budgets`, manager);
    expect(list.body.items.map((b: { project_name: string | null }) => b.project_name)).toEqual([
      null,
      'vision',
    ]);
    expect((await call(s, 'DELETE', `${API}/acme/budgets/vision`, owner)).status).toBe(204);
    expect((await call(s, 'DELETE', `${API}/acme/budgets/vision`, owner)).status).toBe(404);
    expect((await call(s, 'GET', `${API}/acme/budgets`, owner)).body.items).toHaveLength(1);
  });

  it('refuses bad budgets with a clear 400, and unknown projects with 404', async () => {
    const bad = async (body: unknown) => {
      const r = await call(s, 'PUT', `${API}/acme/budgets`, owner, body);
      expect(r.status).toBe(400);
      // The field is named, for the console to show the message on it.
      expect(r.body.errors[0].path).toMatch(/^(credits|thresholds(\.\d+)?)$/);
      return r.body.message as string;
    };
    expect(await bad({ credits: 0 })).toBe('Budget must be a positive number of credits');
    expect(await bad({ credits: -5 })).toBe('Budget must be a positive number of credits');
    expect(await bad({ credits: 'lots' })).toBe('Budget must be a positive number of credits');
    expect(await bad({})).toBe('Budget must be a positive number of credits');
    expect(await bad({ credits: 10, thresholds: [90, 50] })).toBe(
      'Thresholds must be in increasing order, each given once',
    );
    expect(await bad({ credits: 10, thresholds: [50, 50] })).toBe(
      'Thresholds must be in increasing order, each given once',
    );
    expect(await bad({ credits: 10, thresholds: [0] })).toBe(
      'Each threshold must be a whole percentage from 1 to 1000',
    );
    expect(await bad({ credits: 10, thresholds: [1001] })).toBe(
      'Each threshold must be a whole percentage from 1 to 1000',
    );
    expect(await bad({ credits: 10, thresholds: [50.5] })).toBe(
      'Each threshold must be a whole percentage from 1 to 1000',
    );
    expect(await bad({ credits: 10, thresholds: [] })).toBe('Give at least one threshold');
    const r = await call(s, 'PUT', `${API}/acme/budgets/nope`, owner, { credits: 10 });
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('Project nope does not exist in organization acme');
  });

  it('lets only organization managers set or read budgets; no tenant sees another', async () => {
    // Members who do not manage are refused; another tenant is not told acme exists.
    for (const [who, status] of [
      [member, 403],
      [reader, 403],
      [rival, 404],
    ] as const) {
      expect((await call(s, 'GET', `${API}/acme/budgets`, who)).status).toBe(status);
      expect((await call(s, 'PUT', `${API}/acme/budgets`, who, { credits: 1 })).status).toBe(
        status,
      );
      expect((await call(s, 'DELETE', `${API}/acme/budgets`, who)).status).toBe(status);
    }
    expect((await call(s, 'GET', `${API}/acme/budgets`, owner)).body.items[0].credits).toBe(
      '500.0000',
    );
    expect((await call(s, 'GET', `${API}/acme/budgets`, null)).status).toBe(401);
  });

  it('mails every manager once per threshold crossed, never twice, and again next month', async () => {
    await call(s, 'PUT', `${API}/acme/budgets`, owner, { credits: 500 });
    await usage(s, '2026-11-02T10:00:00Z', '100');
    expect(await check(s)).toBe(0);
    expect(budgetAlerts(s)).toHaveLength(0);

    await usage(s, '2026-11-03T10:00:00Z', '160'); // 260 of 500: 52%
    // October's and December's usage is not November's.
    await usage(s, '2026-10-31T23:59:59Z', '400');
    await usage(s, '2026-12-01T00:00:00Z', '400');
    expect(await check(s)).toBe(2); // the owner (admin) and mona (manager)
    expect(await check(s)).toBe(0);
    const first = budgetAlerts(s);
    expect(first).toHaveLength(2);
    const toMona = first.find((m) => m.includes('To: mona@example.test'))!;
    expect(toMona).toContain(
      'Subject: Budget alert: acme has used 52% of its 500-credit budget for November',
    );
    expect(toMona).toContain('Organization: acme');
    expect(toMona).toContain('Threshold: 50%');
    expect(toMona).toContain('Spent: 260.0000 credits (52%)');
    expect(toMona).toContain('Budget: 500.0000 credits for 2026-11');
    expect(toMona).toContain(`${s.url}/org-billing`);
    expect(first.some((m) => m.includes(`To: ${member.email}`))).toBe(false);

    await usage(s, '2026-11-04T10:00:00Z', '200'); // 460: 92%
    expect(await check(s)).toBe(2);
    expect(await check(s)).toBe(0);
    const second = budgetAlerts(s).filter((m) => m.includes('Threshold: 90%'));
    expect(second).toHaveLength(2);
    expect(budgetAlerts(s)).toHaveLength(4);

    const banner = await inNovember(() => call(s, 'GET', `${API}/acme/budget_alerts`, manager));
    expect(banner.body.items).toMatchObject([{ project_name: null, percent: 92, crossed: 90 }]);

    // December starts again from nothing: its 400 credits (80%) cross 50% once more.
    expect(await check(s, new Date('2026-12-10T00:00:00Z'))).toBe(2);
    expect(budgetAlerts(s).filter((m) => m.includes('for December'))).toHaveLength(2);
  });

  it('mails about a project budget with its name, and shows it to its members only', async () => {
    await call(s, 'PUT', `${API}/acme/budgets/vision`, owner, { credits: 100, thresholds: [100] });
    await usage(s, '2026-11-05T10:00:00Z', '20', 'nlp'); // not vision's
    expect(await check(s)).toBe(2); // vision has 460 of 100
    const mail = budgetAlerts(s).find((m) => m.includes('Project: vision'))!;
    expect(mail).toContain('project vision of acme has used 460% of its 100-credit budget');
    expect(mail).toContain('Threshold: 100%');
    // The reader of vision sees its budget, not the organization's; a member of none sees nothing.
    const forReader = await inNovember(() => call(s, 'GET', `${API}/acme/budget_alerts`, reader));
    expect(forReader.status).toBe(200);
    expect(forReader.body.items.map((b: { project_name: string }) => b.project_name)).toEqual([
      'vision',
    ]);
    const banner = (who: TestUser) =>
      inNovember(() => call(s, 'GET', `${API}/acme/budget_alerts`, who));
    expect((await banner(member)).body.items).toEqual([]);
    expect((await banner(rival)).body.items).toEqual([]);
  });

  it('sends one mail when checks run at once, as on two replicas', async () => {
    await call(s, 'PUT', `${API}/acme/budgets`, owner, { credits: 1000, thresholds: [95] });
    const before = budgetAlerts(s).length;
    await usage(s, '2026-11-06T10:00:00Z', '500'); // acme: 980 + … of 1000
    const sent = await Promise.all([check(s), check(s), check(s)]);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(2);
    expect(budgetAlerts(s).length - before).toBe(2);
  });
});

describe.runIf(engine === 'postgres')('budgets on two replicas', () => {
  const r = twoReplicas();
  it('mails the managers once', async () => {
    await call(r.a, 'PUT', `${API}/acme/budgets`, r.owner, { credits: 10, thresholds: [50] });
    await usage(r.a, MID_NOVEMBER.toISOString(), '6');
    const [a, b] = await Promise.all([check(r.a), check(r.b)]);
    expect(a + b).toBe(1);
    expect(budgetAlerts(r.a).length + budgetAlerts(r.b).length).toBe(1);
  });
});
