import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageRecords } from '../../db/schema.js';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { addProject, call, joinOrg, submitJob, tenancy } from '../../test/fixtures.js';
import { DATE_FORMAT_MESSAGE } from '@orrery/contract';
import { csvField, toCsv } from './csv.js';
import { addCredits } from './store-usage.js';

const NOV = 'start_date=2026-11-01T00:00:00&end_date=2026-12-31T00:00:00';
const usage = (query: string) => `/apis/billing/v1/usage?org_name=acme&${NOV}&${query}`;

describe('usage and reports API', () => {
  let s: TestServer;
  let owner: TestUser;
  let bob: TestUser;
  let member: TestUser;
  let rivalOwner: TestUser;
  let admin: TestUser;

  /** A usage record as metering writes it. */
  const record = (o: {
    org?: string;
    cluster?: string;
    project?: string;
    category?: string;
    user?: TestUser | null;
    resource: string;
    /** What metering names it by: the job's id, the app's name, the volume's name. */
    id?: string;
    at: string;
    credits: string;
  }) => ({
    category: o.category ?? 'jobs',
    clusterName: o.cluster ?? 'default',
    orgName: o.org ?? 'acme',
    projectName: o.project ?? 'vision',
    userId: o.user === null ? null : (o.user ?? owner).id,
    resourceUri: o.resource,
    resourceId: o.id ?? o.resource.replace(/^.*\//, ''),
    startedAt: new Date(`${o.at}Z`),
    endedAt: new Date(new Date(`${o.at}Z`).getTime() + 60_000),
    credits: o.credits,
  });

  beforeAll(async () => {
    s = await startTestServer();
    ({ owner } = await tenancy(s, 'acme', 'vision'));
    await addProject(s, owner, 'acme', 'nlp');
    ({ owner: rivalOwner } = await tenancy(s, 'rival', 'vision'));
    bob = await joinOrg(s, await s.user({ username: 'bob' }), 'manager');
    member = await joinOrg(s, await s.user(), 'user');
    admin = await s.user({ systemRole: 'admin' });
    await s.ctx.db.insert(usageRecords).values([
      record({
        resource: 'job://default/acme/vision/job-a',
        at: '2026-11-01T10:00:00',
        credits: '1.2500',
      }),
      // Same UTC day, one second before midnight: a local time zone must not move it.
      record({
        resource: 'job://default/acme/vision/job-a',
        at: '2026-11-01T23:59:59',
        credits: '0.7500',
      }),
      record({
        category: 'apps',
        user: bob,
        resource: 'job://default/acme/vision/job-app',
        id: 'my-notebook',
        at: '2026-11-02T00:00:00',
        credits: '2.0000',
      }),
      record({
        category: 'storage',
        project: 'nlp',
        user: null,
        resource: 'storage://default/acme/nlp',
        id: 'default',
        at: '2026-11-02T05:00:00',
        credits: '0.0001',
      }),
      record({
        cluster: 'gpu',
        resource: 'job://gpu/acme/vision/job-g',
        at: '2026-12-01T00:00:00',
        credits: '10.0000',
      }),
      // Before the period: never counted.
      record({
        resource: 'job://default/acme/vision/job-old',
        at: '2026-10-31T23:59:59',
        credits: '5.0000',
      }),
      // Another tenant: never shown to acme.
      record({
        org: 'rival',
        user: rivalOwner,
        resource: 'job://default/rival/vision/job-r',
        at: '2026-11-03T00:00:00',
        credits: '100.0000',
      }),
    ]);
  });
  afterAll(() => s.stop());

  it('totals each cluster and the organization without groups, only credits in each item', async () => {
    const { status, body } = await call(s, 'GET', usage(''), owner);
    expect(status).toBe(200);
    expect(body).toEqual({
      clusters: [
        { cluster_name: 'default', usage: [{ credits: '4.0001' }], total: '4.0001' },
        { cluster_name: 'gpu', usage: [{ credits: '10.0000' }], total: '10.0000' },
      ],
      total: '14.0001',
    });
  });

  it('groups by project and UTC day', async () => {
    const { body } = await call(s, 'GET', usage('group_by=project&group_by=day'), owner);
    expect(body.clusters[0]).toEqual({
      cluster_name: 'default',
      usage: [
        { project_name: 'vision', date: '2026-11-01', credits: '2.0000' },
        { project_name: 'nlp', date: '2026-11-02', credits: '0.0001' },
        { project_name: 'vision', date: '2026-11-02', credits: '2.0000' },
      ],
      total: '4.0001',
    });
    expect(body.clusters[1].usage).toEqual([
      { project_name: 'vision', date: '2026-12-01', credits: '10.0000' },
    ]);
  });

  it('groups by category and month', async () => {
    const { body } = await call(s, 'GET', usage('group_by=category&group_by=month'), owner);
    expect(body.clusters.map((c: { usage: unknown }) => c.usage)).toEqual([
      [
        { category: 'apps', date: '2026-11', credits: '2.0000' },
        { category: 'jobs', date: '2026-11', credits: '2.0000' },
        { category: 'storage', date: '2026-11', credits: '0.0001' },
      ],
      [{ category: 'jobs', date: '2026-12', credits: '10.0000' }],
    ]);
  });

  it('groups by user, a record without one under null', async () => {
    const { body } = await call(s, 'GET', usage('group_by=user&cluster_name=default'), owner);
    expect(body.clusters).toHaveLength(1);
    expect(body.clusters[0].usage).toEqual([
      { user_name: 'bob', credits: '2.0000' },
      { user_name: owner.username, credits: '2.0000' },
      { user_name: null, credits: '0.0001' },
    ]);
  });

  it('filters by cluster, project and category', async () => {
    const byProject = await call(s, 'GET', usage('project_name=nlp'), owner);
    expect(byProject.body.total).toBe('0.0001');
    const byCategory = await call(s, 'GET', usage('category=jobs'), owner);
    expect(byCategory.body.total).toBe('12.0000');
    const byCluster = await call(s, 'GET', usage('cluster_name=gpu&category=apps'), owner);
    expect(byCluster.body).toEqual({ clusters: [], total: '0.0000' });
  });

  it('takes Unix seconds as well as date-times, the end excluded', async () => {
    const start = Date.UTC(2026, 10, 1) / 1000;
    const end = Date.UTC(2026, 10, 2) / 1000;
    const { status, body } = await call(
      s,
      'GET',
      `/apis/billing/v1/usage?org_name=acme&start_date=${start}&end_date=${end}`,
      owner,
    );
    expect(status).toBe(200);
    expect(body.total).toBe('2.0000');
  });

  it.each([
    ['group_by=day&group_by=month', 'group_by', 'Group by day or by month, not both'],
    ['group_by=week', 'group_by.0', 'group_by must be one of category, project, user, day, month'],
    ['category=gpus', 'category', 'Category must be one of jobs, apps, storage, disks'],
  ])('refuses %s with a clear 400', async (query, path, message) => {
    const { status, body } = await call(s, 'GET', usage(query), owner);
    expect(status).toBe(400);
    expect(body.errors).toContainEqual({ path, message });
  });

  const MSG = `start_date ${DATE_FORMAT_MESSAGE}`;
  it.each([
    ['start_date=yesterday&end_date=1800000000', 'start_date', MSG],
    ['start_date=2026-02-30T00:00:00&end_date=1800000000', 'start_date', MSG],
    ['start_date=2026-11-01 00:00:00&end_date=1800000000', 'start_date', MSG],
    ['start_date=1800000000&end_date=1800000000', 'end_date', 'end_date must be after start_date'],
    ['start_date=1800000000', 'end_date', 'end_date is required'],
  ])('refuses the dates %s with a clear 400', async (dates, path, message) => {
    const { status, body } = await call(
      s,
      'GET',
      `/apis/billing/v1/usage?org_name=acme&${dates}`,
      owner,
    );
    expect(status).toBe(400);
    expect(body.errors).toContainEqual({ path, message });
  });

  it('answers the same query as CSV with a header and one row per group', async () => {
    const res = await s.app.inject({
      method: 'GET',
      url: usage('group_by=project&group_by=day&format=csv'),
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="usage-acme-2026-11-01-2026-12-31.csv"',
    );
    expect(res.body).toBe(
      [
        'cluster_name,project_name,date,credits',
        'default,vision,2026-11-01,2.0000',
        'default,nlp,2026-11-02,0.0001',
        'default,vision,2026-11-02,2.0000',
        'gpu,vision,2026-12-01,10.0000',
        '',
      ].join('\r\n'),
    );
  });

  it('quotes CSV fields that need it and defuses formulas', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('-1.5000')).toBe('-1.5000');
    expect(csvField(null)).toBe('');
    expect(toCsv(['a', 'b'], [['1', null]])).toBe('a,b\r\n1,\r\n');
  });

  it('adds decimal strings exactly', () => {
    expect(addCredits(['0.1000', '0.2000'])).toBe('0.3000');
    expect(addCredits(['99999999999.9999', '0.0001'])).toBe('100000000000.0000');
    expect(addCredits(['-0.0125', '0.0100'])).toBe('-0.0025');
    expect(addCredits([])).toBe('0.0000');
  });

  it('lets organization managers and system administrators read it, no one else', async () => {
    expect((await call(s, 'GET', usage(''), bob)).status).toBe(200);
    expect((await call(s, 'GET', usage(''), admin)).body.total).toBe('14.0001');
    const plain = await call(s, 'GET', usage(''), member);
    expect(plain.status).toBe(403);
    // Another tenant learns nothing, not even that the organization exists.
    const rival = await call(s, 'GET', usage(''), rivalOwner);
    expect(rival.status).toBe(404);
    const outsider = await call(s, 'GET', usage(''), await s.user());
    expect(outsider.status).toBe(404);
    expect((await call(s, 'GET', usage(''), null)).status).toBe(401);
    const own = await call(
      s,
      'GET',
      `/apis/billing/v1/usage?org_name=rival&${NOV}&group_by=project`,
      rivalOwner,
    );
    expect(own.body.total).toBe('100.0000');
  });

  it('lists the most expensive resources of a period, at most `limit`', async () => {
    const top = `/apis/billing/v1/top?org_name=acme&${NOV}`;
    const { status, body } = await call(s, 'GET', top, owner);
    expect(status).toBe(200);
    expect(body).toEqual([
      {
        category: 'jobs',
        project_name: 'vision',
        resource_id: 'job-g',
        resource_name: null,
        user_name: owner.username,
        credits: '10.0000',
      },
      {
        category: 'jobs',
        project_name: 'vision',
        resource_id: 'job-a',
        resource_name: null,
        user_name: owner.username,
        credits: '2.0000',
      },
      {
        category: 'apps',
        project_name: 'vision',
        resource_id: 'my-notebook',
        resource_name: null,
        user_name: 'bob',
        credits: '2.0000',
      },
      {
        category: 'storage',
        project_name: 'nlp',
        resource_id: 'default',
        resource_name: null,
        user_name: null,
        credits: '0.0001',
      },
    ]);
    expect((await call(s, 'GET', `${top}&limit=1`, owner)).body).toHaveLength(1);
    const bad = await call(s, 'GET', `${top}&limit=0`, owner);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('limit must be a number from 1 to 100');
    expect((await call(s, 'GET', top, member)).status).toBe(403);
    expect((await call(s, 'GET', top, rivalOwner)).status).toBe(404);
  });

  it('names a job of the top by its name beside its id', async () => {
    const id = await submitJob(s, owner, 'true', { name: 'train-bert' });
    // In a month of its own: the other tests' totals stay as they are.
    await s.ctx.db.insert(usageRecords).values(
      record({
        resource: `job://default/acme/vision/${id}`,
        at: '2026-09-15T10:00:00',
        credits: '3.0000',
      }),
    );
    const sept = 'start_date=2026-09-01T00:00:00&end_date=2026-10-01T00:00:00';
    const { body } = await call(s, 'GET', `/apis/billing/v1/top?org_name=acme&${sept}`, owner);
    expect(body).toEqual([
      {
        category: 'jobs',
        project_name: 'vision',
        resource_id: id,
        resource_name: 'train-bert',
        user_name: owner.username,
        credits: '3.0000',
      },
    ]);
  });

  describe('POST /api/v1/metrics/credits/usage', () => {
    const METRICS = '/api/v1/metrics/credits/usage';
    const period = { start_date: '2026-11-01T00:00:00', end_date: Date.UTC(2027, 0, 1) / 1000 };
    const orgsOf = (rows: { org_name: string }[]) => [...new Set(rows.map((r) => r.org_name))];

    it('answers a system administrator every organization, a row per resource', async () => {
      const { status, body } = await call(s, 'POST', METRICS, admin, period);
      expect(status).toBe(200);
      expect(orgsOf(body)).toEqual(['acme', 'rival']);
      expect(body).toContainEqual({
        category_name: 'jobs',
        org_name: 'acme',
        project_name: 'vision',
        user_name: owner.username,
        resource_id: 'job-a',
        credits: '2.0000',
      });
    });

    it('restricts an organization manager to the organizations they manage', async () => {
      const mine = await call(s, 'POST', METRICS, bob, period);
      expect(mine.status).toBe(200);
      expect(orgsOf(mine.body)).toEqual(['acme']);
      expect(mine.body).toHaveLength(4);
      const apps = await call(s, 'POST', METRICS, bob, { ...period, category_name: 'apps' });
      expect(apps.body.map((r: { resource_id: string }) => r.resource_id)).toEqual(['my-notebook']);
      const nlp = await call(s, 'POST', METRICS, owner, {
        ...period,
        org_name: 'acme',
        project_name: 'nlp',
      });
      expect(nlp.body.map((r: { credits: string }) => r.credits)).toEqual(['0.0001']);
      expect((await call(s, 'POST', METRICS, bob, { ...period, org_name: 'rival' })).status).toBe(
        404,
      );
    });

    it('reads the storage category over a period written as Python writes it (offset, fractions)', async () => {
      const iso = await call(s, 'POST', METRICS, admin, {
        category_name: 'storage',
        start_date: '2026-11-01T01:00:00.250000+01:00',
        end_date: '2027-01-01T00:00:00Z',
      });
      expect(iso.status).toBe(200);
      const plain = await call(s, 'POST', METRICS, admin, { ...period, category_name: 'storage' });
      expect(iso.body).toEqual(plain.body);
      expect(iso.body.length).toBeGreaterThan(0);
      expect(iso.body.every((r: { category_name: string }) => r.category_name === 'storage')).toBe(
        true,
      );
    });

    it('refuses anyone who manages no organization, and bad periods', async () => {
      const plain = await call(s, 'POST', METRICS, member, period);
      expect(plain.status).toBe(403);
      expect(plain.body.message).toBe('Only organization managers can read credits usage');
      expect((await call(s, 'POST', METRICS, member, { ...period, org_name: 'acme' })).status).toBe(
        403,
      );
      const reversed = await call(s, 'POST', METRICS, admin, {
        start_date: period.end_date,
        end_date: period.start_date,
      });
      expect(reversed.status).toBe(400);
      expect(reversed.body.errors).toContainEqual({
        path: 'end_date',
        message: 'end_date must be after start_date',
      });
    });
  });
});
