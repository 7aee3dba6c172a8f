import type { ClusterQueue, QueueStanding } from '@orrery/contract';
import { act, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch, type CannedResponse } from '../../test/fetch';
import { world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import AdminPage from './AdminPage';

const QUEUE = '/apis/admin/v1/clusters/default/queue';

const standing = (over: Partial<QueueStanding> = {}): QueueStanding => ({
  quota: null,
  used: {},
  borrowed: {},
  share: 0,
  running: 0,
  pending: 0,
  ...over,
});

const job = (over: Partial<ClusterQueue['jobs'][number]>): ClusterQueue['jobs'][number] => ({
  id: 'job-x',
  name: null,
  org: 'acme',
  project: 'vision',
  owner: 'alice',
  status: 'pending',
  priority: 'normal',
  preemptible: false,
  requests: { cpu: 1 },
  position: null,
  message: null,
  ...over,
});

const QUEUE_BODY: ClusterQueue = {
  cluster: 'default',
  capacity: { cpu: 8, memory: 32e9, nvidia_gpu: 2 },
  free: { cpu: 2, memory: 8e9, nvidia_gpu: 0 },
  orgs: [
    {
      org: 'acme',
      ...standing({ used: { cpu: 6, nvidia_gpu: 2 }, share: 1.5, running: 2, pending: 2 }),
      projects: [
        {
          project: 'vision',
          ...standing({
            quota: { nominal: { nvidia_gpu: 1, cpu: 4 }, borrowing_limit: { nvidia_gpu: 1 } },
            used: { nvidia_gpu: 2, cpu: 4 },
            borrowed: { nvidia_gpu: 1 },
            share: 1.5,
            running: 2,
            pending: 1,
          }),
        },
        { project: 'nlp', ...standing({ share: 1, pending: 1 }) },
      ],
    },
    { org: 'beta', ...standing({ share: 0.25, pending: 1 }), projects: [] },
  ],
  jobs: [
    job({ id: 'job-run', name: 'train', status: 'running', requests: { nvidia_gpu: 2, cpu: 6 } }),
    job({
      id: 'job-2',
      org: 'beta',
      project: 'web',
      owner: 'bob',
      position: 2,
      preemptible: true,
      priority: 'low',
      message: 'Behind 1 job(s) of higher fair share or priority',
    }),
    job({
      id: 'job-1',
      name: 'eval',
      position: 1,
      priority: 'high',
      requests: { nvidia_gpu: 1 },
      message: 'Starting soon: 1 preemptible job(s) are giving their capacity back',
    }),
  ],
};

function renderQueue(answer: Omit<CannedResponse, 'url'>, admin = true) {
  const { user, sessionConfig } = world({ system_role: admin ? 'admin' : null });
  const queue: CannedResponse = { url: QUEUE, ...answer };
  const fetch = stubFetch([queue]);
  const view = renderSignedIn(
    <Routes>
      <Route path="/admin/*" element={<AdminPage />} />
      <Route path="/" element={<p>Home</p>} />
    </Routes>,
    // Without the context provider, whose own redirect (adding the context to the query) would
    // race the page's.
    { user, sessionConfig, route: '/admin/clusters/default/queue', withContext: admin },
  );
  const gets = () => fetch.calls.filter((c) => c.url === QUEUE).length;
  return { ...fetch, ...view, queue, gets };
}

const rows = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .slice(1)
    .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));

describe('the Queue tab of a cluster', () => {
  it('shows capacity, each organization and project with its standing, and the jobs in admission order', async () => {
    renderQueue({ body: QUEUE_BODY });
    expect(screen.getByRole('tab', { name: 'Queue' }).getAttribute('aria-selected')).toBe('true');
    await screen.findByRole('table', { name: 'Capacity of the cluster' });
    expect(rows('Capacity of the cluster')).toEqual([
      ['CPU', '8 CPU', '6 CPU', '2 CPU'],
      ['Memory', '32 GB', '24 GB', '8 GB'],
      ['NVIDIA GPUs', '2 NVIDIA GPUs', '2 NVIDIA GPUs', '0 NVIDIA GPUs'],
    ]);
    // Projects follow their organization; a quota lists each limited resource and its borrowing.
    expect(rows('By organization and project')).toEqual([
      [
        'acme',
        'Unlimited',
        '6 CPU, 2 NVIDIA GPUs',
        '—',
        '150 %above its fair share: yields to others',
        '2',
        '2',
      ],
      [
        'vision',
        '4 CPU1 NVIDIA GPUs, may borrow 1 NVIDIA GPUs more',
        '4 CPU, 2 NVIDIA GPUs',
        '1 NVIDIA GPUs',
        '150 %above its fair share: yields to others',
        '2',
        '1',
      ],
      ['nlp', 'Unlimited', '—', '—', '100 %at its fair share', '0', '1'],
      ['beta', 'Unlimited', '—', '—', '25 %below its fair share: admitted first', '0', '1'],
    ]);
    expect(rows('Waiting and running jobs')).toEqual([
      [
        '#1',
        'evaljob-1',
        'acme / vision',
        'alice',
        'pending',
        'high',
        'No',
        '1 NVIDIA GPUs',
        'Starting soon: 1 preemptible job(s) are giving their capacity back',
      ],
      [
        '#2',
        'job-2',
        'beta / web',
        'bob',
        'pending',
        'low',
        'Yes',
        '1 CPU',
        'Behind 1 job(s) of higher fair share or priority',
      ],
      [
        '—',
        'trainjob-run',
        'acme / vision',
        'alice',
        'running',
        'normal',
        'No',
        '6 CPU, 2 NVIDIA GPUs',
        '—',
      ],
    ]);
  });

  it("shows the server's message when the queue cannot be read", async () => {
    const message = 'Cluster nowhere not found';
    renderQueue({ status: 404, body: { error: 'not_found', message } });
    expect(await screen.findByText(message)).toBeTruthy();
  });

  it('reads the queue again every 10 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { gets, queue } = renderQueue({ body: QUEUE_BODY });
    await screen.findByText('eval');
    expect(gets()).toBe(1);
    queue.body = { ...QUEUE_BODY, jobs: [] };
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(await screen.findByText('No job waits or runs on this cluster.')).toBeTruthy();
    expect(gets()).toBe(2);
  });

  it('is not offered to a user without a system role, who never reads the queue', async () => {
    const { gets, url } = renderQueue({ body: QUEUE_BODY }, false);
    await vi.waitFor(() => expect(url()).toBe('/'));
    expect(screen.queryByRole('tab', { name: 'Queue' })).toBeNull();
    expect(gets()).toBe(0);
  });
});
