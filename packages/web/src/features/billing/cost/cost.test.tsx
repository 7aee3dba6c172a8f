import { act, fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Disk as DiskSchema, Preset, toCamel } from '@orrery/contract';
import { stubFetch, type CannedResponse } from '../../../test/fetch';
import { renderSignedIn } from '../../../test/render';
import { world } from '../../../test/fixtures';
import JobsPage from '../../jobs/JobsPage';
import { jobWire, ROUTE_QUERY, signedIn, stubIntersectionObserver } from '../../jobs/test-fixtures';
import { GET, renderJob } from '../../jobs/test-render';
import DisksPage from '../../disks/DisksPage';
import { ClusterSettingsPage } from '../../people/SettingsPages';
import { DiskPrice } from '../../admin/DiskPrice';
import { appWire, instancesPage, renderApps, templateSummary, V1 } from '../../apps/test-fixtures';

afterEach(() => vi.useRealTimers());

const side = () => screen.getByRole('complementary');

describe('cost beside each resource', () => {
  it('shows the credits each job used so far in the jobs list, and the rate while it runs', async () => {
    stubFetch([
      {
        url: /^\/api\/v1\/jobs\?/,
        body: {
          jobs: [
            jobWire({ id: 'job-a', name: 'train', total_price_credits: '0.0125' }),
            jobWire({
              id: 'job-b',
              name: 'done',
              status: 'succeeded',
              total_price_credits: '1234.5',
              price_credits_per_hour: '2',
            }),
          ],
        },
      },
    ]);
    stubIntersectionObserver();
    renderSignedIn(
      <Routes>
        <Route path="/jobs/*" element={<JobsPage />} />
      </Routes>,
      { ...signedIn(), route: `/jobs?${ROUTE_QUERY}&status=all` },
    );
    const table = (await screen.findByRole('link', { name: 'train' })).closest('table')!;
    expect(within(table).getByRole('columnheader', { name: 'Credits' })).toBeTruthy();
    const running = screen.getByRole('link', { name: 'train' }).closest('tr')!;
    expect(within(running).getByText('0.0125 credits')).toBeTruthy();
    expect(within(running).getByText('1 credits/h')).toBeTruthy();
    const finished = screen.getByRole('link', { name: 'done' }).closest('tr')!;
    expect(within(finished).getByText('1,234.5 credits')).toBeTruthy();
    // A finished job costs nothing more: no rate beside it.
    expect(within(finished).queryByText(/credits\/h/)).toBeNull();
  });

  it('reads the list again every 10 seconds while a listed job runs, so its credits move', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answer: CannedResponse = {
      url: /^\/api\/v1\/jobs\?/,
      body: { jobs: [jobWire({ name: 'train', total_price_credits: '0.5' })] },
    };
    stubFetch([answer]);
    stubIntersectionObserver();
    renderSignedIn(
      <Routes>
        <Route path="/jobs/*" element={<JobsPage />} />
      </Routes>,
      { ...signedIn(), route: `/jobs?${ROUTE_QUERY}` },
    );
    const row = (await screen.findByRole('link', { name: 'train' })).closest('tr')!;
    expect(within(row).getByText('0.5 credits')).toBeTruthy();
    answer.body = { jobs: [jobWire({ name: 'train', total_price_credits: '0.5167' })] };
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await vi.waitFor(() =>
      expect(
        within(screen.getByRole('link', { name: 'train' }).closest('tr')!).getByText(
          '0.5167 credits',
        ),
      ).toBeTruthy(),
    );
  });

  it('shows the credits so far on the job page and follows them while the job runs', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answer: CannedResponse = { url: GET, body: jobWire({ total_price_credits: '0.5' }) };
    renderJob(answer);
    const credits = await screen.findByRole('group', { name: 'Credits' });
    expect(within(credits).getByText('0.5 credits')).toBeTruthy();
    expect(within(credits).getByText('1 credits/h')).toBeTruthy();
    expect(within(side()).getByRole('group', { name: 'Credits' })).toBe(credits);
    // The Details tab says the same, in the same words.
    const details = screen.getByRole('region', { name: 'Job' });
    expect(within(details).getByText('0.5 credits')).toBeTruthy();
    expect(within(details).getByText('1 credits/h')).toBeTruthy();
    // A minute's charge later the server says more; the page's next read shows it.
    answer.body = jobWire({ total_price_credits: '0.5167' });
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await vi.waitFor(() => expect(within(credits).getByText('0.5167 credits')).toBeTruthy());
  });

  const disk = (id: string, name: string, storage: number) =>
    DiskSchema.parse({
      ...{ id, storage, used_bytes: null, status: 'Ready', owner: 'alice', name },
      ...{ org_name: 'acme', project_name: 'vision', cluster_name: 'default' },
      uri: `disk://default/acme/vision/${id}`,
      created_at: '2026-01-02T03:04:05.000Z',
      last_usage: null,
      life_span: null,
    });
  /** The disks page on a cluster whose config names this price per GB-day (or none). */
  const renderDisks = (price: string | null) => {
    const { user, configWire } = world();
    const clusters = configWire.clusters!.map((c) =>
      price !== null && c.name === 'default'
        ? { ...c, disk_price: { credits_per_day_per_gb: price } }
        : c,
    );
    stubFetch([
      {
        url: '/api/v1/disk?cluster_name=default&org_name=acme&project_name=vision',
        body: [disk('disk-1', 'data', 10 ** 10), disk('disk-2', 'tiny', 5 * 10 ** 8)],
      },
    ]);
    renderSignedIn(<DisksPage />, {
      user,
      sessionConfig: toCamel({ ...configWire, clusters }),
      route: '/disks?org=acme&cluster=default&project=vision',
    });
  };
  const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;

  it("shows each disk's credits per day at the cluster's price per GB-day", async () => {
    renderDisks('0.2');
    const row = await rowOf('data');
    expect(screen.getByRole('columnheader', { name: 'Credits per day' })).toBeTruthy();
    // 10 GB × 0.2 and 0.5 GB × 0.2.
    expect(within(row).getByText('2 credits/day')).toBeTruthy();
    expect(within(await rowOf('tiny')).getByText('0.1 credits/day')).toBeTruthy();
  });

  it('says what a new disk will cost a day as its size is typed', async () => {
    renderDisks('0.2');
    await rowOf('data');
    fireEvent.click(screen.getByRole('button', { name: 'Create new disk' }));
    const storage = await screen.findByRole('textbox', { name: /Storage/ });
    fireEvent.change(storage, { target: { value: '50' } });
    // 50 GB (the default unit) × 0.2.
    expect(await screen.findByText('Costs 10 credits/day')).toBeTruthy();
  });

  it('says disks are free where the cluster charges nothing', async () => {
    renderDisks('0');
    expect(within(await rowOf('data')).getByText('Free')).toBeTruthy();
  });

  it('shows no credits column when the server names no disk price', async () => {
    renderDisks(null);
    await rowOf('data');
    expect(screen.queryByRole('columnheader', { name: 'Credits per day' })).toBeNull();
  });

  it("lists the cluster's presets with their credits per hour in cluster settings", async () => {
    stubFetch([{ url: /\/clusters\/default\/orgs\/acme\/users/, body: [] }]);
    const { user, sessionConfig } = world();
    sessionConfig.clusters![0]!.resourcePresets = [
      ['cpu-small', '0.05'],
      ['gpu-a100', '12'],
    ].map(([name, credits]) =>
      toCamel(
        Preset.parse({
          ...{ name, credits_per_hour: credits, cpu: 1, memory: 4e9, memory_mb: 3815 },
          ...{ scheduler_enabled: false, preemptible_node: false, is_preemptible: false },
          is_preemptible_node_required: false,
          resource_pool_names: [],
          available_resource_pool_names: [],
        }),
      ),
    );
    renderSignedIn(
      <Routes>
        <Route path="/cluster-settings/:tab?" element={<ClusterSettingsPage />} />
      </Routes>,
      { user, sessionConfig, route: `/cluster-settings/general?${ROUTE_QUERY}` },
    );
    expect(
      await screen.findByText('cpu-small (0.05 credits/h), gpu-a100 (12 credits/h)'),
    ).toBeTruthy();
  });

  it("lets a system administrator set the disks' price per GB-day, showing the server's refusal", async () => {
    const PRICE = '/apis/admin/v1/clusters/default/disk_price';
    const { calls } = stubFetch([
      { url: PRICE, body: { credits_per_day_per_gb: '0.0000' } },
      {
        method: 'PATCH',
        url: PRICE,
        status: 400,
        body: {
          error: 'validation',
          message: 'Invalid request',
          errors: [{ path: 'credits_per_day_per_gb', message: 'Credits must be a number' }],
        },
      },
    ]);
    const { user, sessionConfig } = world({ system_role: 'admin' });
    renderSignedIn(<DiskPrice cluster="default" />, { user, sessionConfig, route: '/admin' });
    const field = await screen.findByLabelText(/Credits per GB per day/);
    await vi.waitFor(() => expect((field as HTMLInputElement).value).toBe('0.0000'));
    fireEvent.change(field, { target: { value: '0.2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save disk price' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
        credits_per_day_per_gb: '0.2',
      }),
    );
    expect(await screen.findByText('Credits must be a number')).toBeTruthy();
  });

  it('shows what each installed app has cost so far on its card', async () => {
    renderApps('/apps/installed', [
      { url: `${V1}/templates`, body: [templateSummary('shell')] },
      instancesPage([appWire({ credits_so_far: '0.6500', credits_per_hour: '0.4000' })]),
    ]);
    const card = await screen.findByRole('article', { name: 'My shell' });
    expect(within(card).getByText('Credits so far: 0.65 credits')).toBeTruthy();
  });
});
