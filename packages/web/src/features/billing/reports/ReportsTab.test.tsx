import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { UserWire } from '@orrery/contract';
import { stubFetch, type CannedResponse, type RecordedCall } from '../../../test/fetch';
import { world } from '../../../test/fixtures';
import { renderSignedIn } from '../../../test/render';
import AdminPage from '../../admin/AdminPage';
import {
  ClusterSettingsPage,
  OrgSettingsPage,
  ProjectSettingsPage,
} from '../../people/SettingsPages';
import { B } from '../test-fixtures';
import type { PoolUtilisationWire, ReportUsageWire, TopResourceWire } from './api';

const cluster = (usage: ReportUsageWire['clusters'][number]['usage'], total: string) => ({
  clusters: [{ cluster_name: 'default', usage, total }],
  total,
});
const OVER_TIME = cluster(
  [
    { category: 'jobs', date: '2026-11-01', credits: '12.5' },
    { category: 'storage', date: '2026-11-02', credits: '0.25' },
  ],
  '12.75',
);
const BY_PROJECT = cluster(
  [
    { project_name: 'nlp', credits: '2.75' },
    { project_name: 'vision', credits: '10' },
  ],
  '12.75',
);
const BY_USER = cluster(
  [
    { user_name: 'alice', credits: '12.5' },
    { user_name: null, credits: '0.25' },
  ],
  '12.75',
);
const TOP: TopResourceWire[] = [
  {
    category: 'apps',
    project_name: 'vision',
    resource_id: 'my-notebook',
    resource_name: null,
    user_name: 'alice',
    credits: '9.5',
  },
  {
    category: 'jobs',
    project_name: 'nlp',
    resource_id: 'job-7',
    resource_name: 'train-bert',
    user_name: 'bob',
    credits: '2',
  },
  {
    category: 'jobs',
    project_name: 'nlp',
    resource_id: 'job-8',
    resource_name: null,
    user_name: 'bob',
    credits: '1',
  },
];

const POOLS: PoolUtilisationWire = {
  step: 300,
  pools: [
    {
      pool_name: 'cpu-pool',
      samples: [
        {
          at: '2026-11-03T10:00:00Z',
          cpu_used: 1,
          cpu_total: 4,
          memory_used: 2e9,
          memory_total: 8e9,
          gpu_used: 0,
          gpu_total: 0,
        },
      ],
    },
  ],
};

/** The usage route answers by the groups asked, as the server does. */
const byGroups = (q: URLSearchParams) => {
  const g = q.getAll('group_by').join(',');
  return g === 'category,day' ? OVER_TIME : g === 'project' ? BY_PROJECT : BY_USER;
};
const reportsApi = (refusal?: string): CannedResponse[] =>
  refusal
    ? [
        { url: new RegExp(`^${B}/usage\\?`), status: 403, body: { message: refusal } },
        { url: new RegExp(`^${B}/top\\?`), status: 403, body: { message: refusal } },
      ]
    : [{ url: new RegExp(`^${B}/top\\?`), body: TOP }];

/** stubFetch matches a fixed body per URL; the usage answers depend on the query. */
function stubReports(refusal?: string) {
  const stub = stubFetch([...reportsApi(refusal), { url: /./, body: [] }]);
  if (!refusal)
    stub.fetchMock.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      stub.calls.push({ method: init.method ?? 'GET', url, headers: {}, body: undefined });
      const q = new URL(url, 'http://x').searchParams;
      // The permission engine as the world's roles make it: an org user manages only its project
      // vision; the cluster is managed by system administrators only (acme's people are its users).
      if (url.endsWith('/api/v1/permissions/check')) {
        const asked = JSON.parse(String(init.body)) as { uri: string; action: string }[];
        const ownProject = (uri: string) => uri.startsWith('project:') && uri.endsWith('/vision');
        const allowed = (uri: string) =>
          uri.startsWith('cluster:') ? managesCluster : managesOrg || ownProject(uri);
        return Response.json(asked.map((a) => ({ ...a, allowed: allowed(a.uri) })));
      }
      const body = url.startsWith(`${B}/usage?`)
        ? byGroups(q)
        : url.startsWith(`${B}/top?`)
          ? TOP
          : url.startsWith(`${B}/pools?`)
            ? POOLS
            : [];
      return new Response(JSON.stringify(body), {
        headers: { 'Content-Type': 'application/json' },
      });
    });
  return stub;
}

const queries = (calls: RecordedCall[], path: 'usage' | 'top' | 'pools') =>
  calls
    .filter((c) => c.url.startsWith(`${B}/${path}?`))
    .map((c) => new URL(c.url, 'http://x').searchParams);

let managesOrg = false;
let managesCluster = false;
function render(page: string, over: Partial<UserWire>, route: string) {
  managesCluster = over.system_role === 'admin';
  managesOrg = managesCluster || over.orgs?.[0]?.role === 'manager';
  const { user, sessionConfig } = world(over);
  return renderSignedIn(
    <Routes>
      <Route path="/org-settings/:tab?" element={<OrgSettingsPage />} />
      <Route path="/cluster-settings/:tab?" element={<ClusterSettingsPage />} />
      <Route path="/project-settings/:tab?" element={<ProjectSettingsPage />} />
      <Route path="/admin/*" element={<AdminPage />} />
    </Routes>,
    { user, sessionConfig, route: `/${page}?org=acme&cluster=default&project=${route}` },
  );
}
const orgRole = (role: 'manager' | 'user'): Partial<UserWire> => ({
  orgs: [{ name: 'acme', role, balance: { credits: null }, projects_count: 2 }],
});

describe('reports tabs', () => {
  it("shows an organization's managers its usage by category, project and user, and the top", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-31T12:00:00Z') });
    const { calls } = stubReports();
    render('org-settings/reports', orgRole('manager'), 'vision');
    const byProject = await screen.findByRole('region', { name: 'Usage by project' });
    const vision = (await within(byProject).findByText('vision')).closest('tr')!;
    expect(within(vision).getByText('10')).toBeTruthy();
    const byUser = screen.getByRole('region', { name: 'Usage by user' });
    expect(within(byUser).getByText('No user')).toBeTruthy();
    expect(within(byUser).getByText('12.75')).toBeTruthy();
    const top = screen.getByRole('region', { name: 'Most expensive jobs and apps' });
    const rows = within(top).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'my-notebookAppsvisionalice9.5',
      // A job by its name, its id beneath; one without a name by its id.
      'train-bertjob-7Jobsnlpbob2',
      'job-8Jobsnlpbob1',
    ]);
    expect(screen.getByRole('figure', { name: 'Usage by category over time' })).toBeTruthy();
    const usage = queries(calls, 'usage');
    expect(usage.map((q) => q.getAll('group_by').join(','))).toEqual(
      expect.arrayContaining(['category,day', 'project', 'user']),
    );
    for (const q of [...usage, ...queries(calls, 'top')]) {
      expect(q.get('org_name')).toBe('acme');
      expect(q.has('cluster_name')).toBe(false);
      // From the start of this month, as the billing page.
      expect(q.get('start_date')).toBe('2026-03-01T00:00:00');
    }
  });

  it('asks again for the period picked', async () => {
    const { calls } = stubReports();
    render('org-settings/reports', orgRole('manager'), 'vision');
    await screen.findByRole('region', { name: 'Usage by project' });
    await userEvent.click(screen.getByRole('combobox', { name: 'Year' }));
    await userEvent.click(await screen.findByRole('option', { name: '2025' }));
    await waitFor(() =>
      expect(queries(calls, 'top').at(-1)!.get('start_date')).toBe('2025-01-01T00:00:00'),
    );
    expect(queries(calls, 'top').at(-1)!.get('end_date')).toBe('2026-01-01T00:00:00');
  });

  it('gives other organization members no reports tab', async () => {
    const { calls } = stubReports();
    const { url } = render('org-settings/reports', orgRole('user'), 'vision');
    await waitFor(() => expect(url()).toMatch(/^\/org-settings\/users\?/));
    expect(screen.queryByRole('tab', { name: 'Reports' })).toBeNull();
    expect(queries(calls, 'usage')).toEqual([]);
  });

  it("shows managers the organization's usage on the cluster, its node pools only to the cluster's", async () => {
    const { calls } = stubReports();
    render('cluster-settings/reports', orgRole('manager'), 'vision');
    await screen.findByRole('region', { name: 'Usage by project' });
    // acme's manager is a plain user of the default cluster.
    expect(screen.queryByRole('region', { name: 'Node pool utilisation' })).toBeNull();
    expect(queries(calls, 'pools')).toEqual([]);
    for (const q of queries(calls, 'usage')) {
      expect(q.get('org_name')).toBe('acme');
      expect(q.get('cluster_name')).toBe('default');
      expect(q.has('project_name')).toBe(false);
    }
  });

  it('tells other cluster users why its reports are not theirs, asking nothing', async () => {
    const { calls } = stubReports();
    render('cluster-settings/reports', orgRole('user'), 'vision');
    expect(
      await screen.findByText(
        'Only managers of the organization or of the cluster can see its reports',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'General' })).toBeNull();
    expect(queries(calls, 'usage')).toEqual([]);
  });

  it("shows a project's managers its usage, without a split by project", async () => {
    const { calls } = stubReports();
    render('project-settings/reports', orgRole('user'), 'vision');
    expect(await screen.findByRole('region', { name: 'Usage by user' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Usage by project' })).toBeNull();
    const tabs = screen.getAllByRole('tab').map((t) => t.textContent);
    // Managers also see the project's API tokens (docs/tokens.md).
    expect(tabs).toEqual(['General', 'Quota', 'Reports', 'Users', 'Tokens']);
    const usage = queries(calls, 'usage');
    expect(usage.map((q) => q.getAll('group_by').join(',')).sort()).toEqual([
      'category,day',
      'user',
    ]);
    for (const q of usage) expect(q.get('project_name')).toBe('vision');
  });

  it("shows a project's readers general, its quota and users only", async () => {
    const { calls } = stubReports();
    render('project-settings/general', orgRole('user'), 'nlp');
    await screen.findByRole('tab', { name: 'Users' });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'General',
      'Quota',
      'Users',
    ]);
    expect(queries(calls, 'usage')).toEqual([]);
  });

  it("shows system administrators a whole cluster's usage across organizations", async () => {
    const { calls } = stubReports();
    render('admin/clusters/default/reports', { system_role: 'admin' }, 'vision');
    await screen.findByRole('region', { name: 'Usage by project' });
    const pools = await screen.findByRole('region', { name: 'Node pool utilisation' });
    expect(await within(pools).findByRole('figure', { name: 'Node pool cpu-pool' })).toBeTruthy();
    expect(queries(calls, 'pools')[0]!.get('cluster_name')).toBe('default');
    for (const q of [...queries(calls, 'usage'), ...queries(calls, 'top')]) {
      expect(q.get('cluster_name')).toBe('default');
      expect(q.has('org_name')).toBe(false);
    }
  });

  it("shows the server's message when it refuses", async () => {
    stubReports('Only organization managers can read credits usage');
    render('org-settings/reports', orgRole('manager'), 'vision');
    const top = await screen.findByRole('region', { name: 'Most expensive jobs and apps' });
    expect(
      await within(top).findByText('Only organization managers can read credits usage'),
    ).toBeTruthy();
  });
});
