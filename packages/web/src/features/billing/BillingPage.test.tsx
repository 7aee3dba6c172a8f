import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { OrgRole } from '@orrery/contract';
import type { UsageWire } from '../../api/billing';
import { captureDownloads } from '../../test/downloads';
import type { CannedResponse, RecordedCall } from '../../test/fetch';
import BillingPage from './BillingPage';
import { B, billingWire, renderBilling } from './test-fixtures';

const EMPTY: UsageWire = { clusters: [], total: '0' };
const USAGE: UsageWire = {
  clusters: [
    {
      cluster_name: 'default',
      usage: [
        { category: 'jobs', date: '2026-11-01', credits: '12.5' },
        { category: 'storage', date: '2026-11-01', credits: '0.25' },
        { category: 'jobs', date: '2026-11-02', credits: '3' },
      ],
      total: '15.75',
    },
  ],
  total: '15.75',
};

const page = (
  tab: string,
  extra: CannedResponse[] = [],
  { role = 'manager' as OrgRole, usage = EMPTY } = {},
) =>
  renderBilling(
    <Routes>
      <Route path="/org-billing/:tab?" element={<BillingPage />} />
    </Routes>,
    [...extra, billingWire.usage(usage), billingWire.payments('test')],
    { role, route: `/org-billing/${tab}?org=acme&cluster=default&project=vision` },
  );

/** The query of each usage call made, in order. */
const usageCalls = (calls: RecordedCall[]) =>
  calls
    .filter((c) => c.url.startsWith(`${B}/usage?`))
    .map((c) => new URL(c.url, 'http://x').searchParams);
const lastUsage = (calls: RecordedCall[]) => usageCalls(calls).at(-1)!;

async function pick(label: string, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('billing page', () => {
  it('refuses a member who does not manage the organization, and asks nothing', async () => {
    const { calls } = page('usage', [], { role: 'user' });
    expect(await screen.findByText('Only organization managers can see billing')).toBeTruthy();
    expect(usageCalls(calls)).toEqual([]);
  });

  it('asks for this month so far, by category and day, over every cluster', async () => {
    // A month's last day, on a clock that stands still: tomorrow is in the next month.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-31T12:00:00Z') });
    const { calls } = page('usage');
    await waitFor(() => expect(usageCalls(calls)).toHaveLength(1));
    const q = lastUsage(calls);
    expect(q.get('org_name')).toBe('acme');
    expect(q.getAll('group_by')).toEqual(['category', 'day']);
    expect(q.get('start_date')).toBe('2026-03-01T00:00:00');
    expect(q.get('end_date')).toBe('2026-04-01T00:00:00');
    expect(q.has('cluster_name')).toBe(false);
    expect((screen.getByRole('combobox', { name: 'Cluster' }) as HTMLInputElement).disabled).toBe(
      true,
    );
  });

  it('groups by month instead of day, and by project on demand', async () => {
    const { calls } = page('usage');
    await waitFor(() => expect(usageCalls(calls)).toHaveLength(1));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Month' }));
    await waitFor(() => expect(lastUsage(calls).getAll('group_by')).toEqual(['category', 'month']));
    expect((screen.getByRole('checkbox', { name: 'Day' }) as HTMLInputElement).checked).toBe(false);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Project' }));
    await waitFor(() =>
      expect(lastUsage(calls).getAll('group_by')).toEqual(['category', 'month', 'project']),
    );
    await userEvent.click(screen.getByRole('checkbox', { name: 'Day' }));
    await waitFor(() =>
      expect(lastUsage(calls).getAll('group_by')).toEqual(['category', 'project', 'day']),
    );
  });

  it('sets the range to a year, then to a month of it, and filters by project', async () => {
    const { calls } = page('usage');
    await waitFor(() => expect(usageCalls(calls)).toHaveLength(1));
    await pick('Year', '2024');
    await waitFor(() => expect(lastUsage(calls).get('start_date')).toBe('2024-01-01T00:00:00'));
    expect(lastUsage(calls).get('end_date')).toBe('2025-01-01T00:00:00');
    await pick('Month', 'February');
    await waitFor(() => expect(lastUsage(calls).get('start_date')).toBe('2024-02-01T00:00:00'));
    expect(lastUsage(calls).get('end_date')).toBe('2024-03-01T00:00:00');
    await pick('Project', 'nlp');
    await waitFor(() => expect(lastUsage(calls).get('project_name')).toBe('nlp'));
  });

  it('shows two months in the date picker and no day after today', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-31T12:00:00Z') });
    page('usage');
    await userEvent.click(await screen.findByRole('button', { name: 'Date range' }));
    const tables = await screen.findAllByRole('table');
    expect(tables).toHaveLength(2);
    // Days are named as "25 November 2026".
    const name = (d: Date) =>
      `${d.getDate()} ${d.toLocaleString('en-US', { month: 'long' })} ${d.getFullYear()}`;
    const now = new Date();
    const day = (d: Date) => screen.getAllByRole('button', { name: name(d) })[0];
    expect(day(now).hasAttribute('disabled')).toBe(false);
    expect(day(new Date(now.getFullYear(), now.getMonth() + 1, 1)).hasAttribute('disabled')).toBe(
      true,
    );
  });

  it('charts credits by category over the days and lists them with the total', async () => {
    // jsdom lays nothing out: the chart is given the size a browser would.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
      width: 800,
      height: 280,
      top: 0,
      left: 0,
      right: 800,
      bottom: 280,
      x: 0,
      y: 0,
      toJSON: () => ({}),
    });
    page('usage', [], { usage: USAGE });
    const table = await screen.findByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toEqual([
      'ClusterDateCategoryCredits',
      'default2026-11-01Jobs12.5',
      'default2026-11-01Storage0.25',
      'default2026-11-02Jobs3',
      'Total15.75',
    ]);
    const chart = screen.getByRole('figure', { name: 'Credits by category' });
    await waitFor(() => expect(within(chart).getByText('Storage')).toBeTruthy());
    expect(within(chart).getByText('Jobs')).toBeTruthy();
    expect(within(chart).getByText('2026-11-02')).toBeTruthy();
  });

  it('says when nothing was used in the period', async () => {
    page('usage');
    expect(await screen.findByText('No usage in this period')).toBeTruthy();
  });

  it('downloads the same query as CSV', async () => {
    const csv = 'cluster_name,category,date,credits\ndefault,jobs,2026-11-01,12.5\n';
    const downloads = captureDownloads();
    const { calls } = page('usage', [
      { url: new RegExp(`^${B}/usage\\?.*format=csv`), text: { body: csv, type: 'text/csv' } },
    ]);
    await waitFor(() => expect(usageCalls(calls)).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(downloads.clicked).toHaveLength(1));
    const [json, asCsv] = usageCalls(calls);
    expect(asCsv.get('format')).toBe('csv');
    asCsv.delete('format');
    expect(asCsv.toString()).toBe(json.toString());
    expect(downloads.clicked[0].download).toMatch(/^usage-acme-.*\.csv$/);
    expect(await downloads.blobs[0].text()).toBe(csv);
    downloads.restore();
  });

  it("shows the balance, the period's spending per cluster, the ledger and members' limits", async () => {
    const { calls } = page('credits', [
      billingWire.orgBalance('1234.5'),
      {
        url: `${B}/orgs/acme/ledger?page=1&size=50`,
        body: {
          items: [
            billingWire.ledgerEntry(),
            billingWire.ledgerEntry({
              id: 2,
              kind: 'usage',
              credits: '-0.0125',
              balance_after: '1234.5',
              user_name: 'bob',
              reference: 'job://default/acme/vision/job-1',
            }),
          ],
          total: 2,
        },
      },
      {
        url: '/apis/admin/v1/orgs/acme/users?with_user_info=true',
        body: [
          billingWire.orgUser('alice', null, 'manager'),
          billingWire.orgUser('bob', '50', 'user', '2.5'),
        ],
      },
    ]);
    expect(await screen.findByText('1,234.5')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Buy credits' })).toBeTruthy();
    const ledger = await screen.findByRole('table', { name: 'Balance changes' });
    expect(within(ledger).getByText('job://default/acme/vision/job-1')).toBeTruthy();
    expect(within(ledger).getByText('-0.0125')).toBeTruthy();
    expect(within(ledger).getByText('Purchase')).toBeTruthy();
    const members = await screen.findByRole('table', { name: "Members' limits" });
    const rows = within(members)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toEqual(['NameRoleCredit limitSpent', 'alicemanagerUnlimited0', 'bobuser502.5']);
    // The credits tab may narrow to one cluster, and asks for the period's total only.
    await waitFor(() => expect(usageCalls(calls)).toHaveLength(1));
    expect(lastUsage(calls).getAll('group_by')).toEqual([]);
    const cluster = screen.getByRole('combobox', { name: 'Cluster' }) as HTMLInputElement;
    expect(cluster.disabled).toBe(false);
    await pick('Cluster', 'gpu');
    await waitFor(() => expect(lastUsage(calls).get('cluster_name')).toBe('gpu'));
  });
});
