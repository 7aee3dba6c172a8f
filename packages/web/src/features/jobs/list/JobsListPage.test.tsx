import { act, fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch, type CannedResponse } from '../../../test/fetch';
import { expectOffered, expectWhyNot, permissionsOf } from '../../../test/permissions';
import { renderSignedIn } from '../../../test/render';
import JobsPage from '../JobsPage';
import {
  JOB_ID,
  jobWire,
  ROUTE_QUERY,
  signedIn,
  stubIntersectionObserver,
  processRuntimeRoute,
  JOBS_REFUSED,
} from '../test-fixtures';

const LIST = /^\/api\/v1\/jobs\?/;
const SCOPE = 'cluster_name=default&org_name=acme&project_name=vision';

function renderList(query = '', jobs = [jobWire()], extra: CannedResponse[] = []) {
  const fetch = stubFetch([
    ...extra,
    { url: LIST, body: { jobs } },
    { method: 'DELETE', url: `/api/v1/jobs/${JOB_ID}`, status: 204 },
  ]);
  const observer = stubIntersectionObserver();
  const view = renderSignedIn(
    <Routes>
      <Route path="/jobs/*" element={<JobsPage />} />
    </Routes>,
    { ...signedIn(), route: `/jobs?${ROUTE_QUERY}${query}` },
  );
  const lists = () => fetch.calls.filter((c) => c.method === 'GET' && LIST.test(c.url));
  return { ...fetch, ...view, observer, lists };
}

describe('Jobs list', () => {
  it('asks for running jobs, newest first, 50 at a time, and links to Create new job', async () => {
    const { lists } = renderList('', []);
    expect(await screen.findByText('No jobs found')).toBeTruthy();
    expect(lists()[0].url).toBe(`/api/v1/jobs?${SCOPE}&status=running&reverse=1&limit=50`);
    const create = await screen.findByRole('link', { name: 'Create new job' });
    expect(create.getAttribute('href')).toBe(`/jobs/new?${ROUTE_QUERY}`);
  });

  it('shows the columns and status colours, and opens a job with Monitor', async () => {
    const { url } = renderList();
    const row = (await screen.findByRole('link', { name: 'train' })).closest('tr')!;
    expect(within(row).getByText(JOB_ID)).toBeTruthy();
    expect(within(row).getByText('ubuntu:24.04')).toBeTruthy();
    expect(within(row).getByText('cpu-small')).toBeTruthy();
    expect(
      within(row).getByText('running').closest('.mantine-Badge-root')!.getAttribute('style'),
    ).toContain('green');
    fireEvent.click(within(row).getByRole('link', { name: 'Monitor train' }));
    expect(url()).toBe(`/jobs/${JOB_ID}?${ROUTE_QUERY}`);
  });

  it('keeps status, search and tags in the query string and sends them to the server', async () => {
    const { lists, url } = renderList();
    await screen.findByRole('link', { name: 'train' });

    fireEvent.click(screen.getByRole('radio', { name: 'All' }));
    await vi.waitFor(() => expect(lists().at(-1)!.url).not.toContain('status='));
    expect(url()).toContain('status=all');

    // The server matches literally; special characters only need URL encoding.
    fireEvent.change(screen.getByRole('textbox', { name: 'Search by ID or name' }), {
      target: { value: 'a+b&c%' },
    });
    await vi.waitFor(() => expect(lists().at(-1)!.url).toContain('q=a%2Bb%26c%25'));
    expect(new URLSearchParams(url().split('?')[1]).get('search')).toBe('a+b&c%');

    fireEvent.click(await screen.findByRole('button', { name: 'Show jobs tagged exp:1' }));
    await vi.waitFor(() => expect(lists().at(-1)!.url).toContain('tag=exp%3A1'));
    expect(url()).toContain('tag=exp%3A1');
    const input = screen.getByRole('textbox', { name: 'Filter by tag' });
    fireEvent.change(input, { target: { value: 'team' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await vi.waitFor(() => expect(lists().at(-1)!.url).toContain('tag=exp%3A1&tag=team'));

    fireEvent.click(screen.getByRole('button', { name: 'Remove tag filter exp:1' }));
    await vi.waitFor(() => expect(url()).not.toContain('exp'));
    expect(lists().at(-1)!.url).toBe(
      `/api/v1/jobs?${SCOPE}&q=a%2Bb%26c%25&tag=team&reverse=1&limit=50`,
    );
  });

  it('honours projectId and flowName: the flow’s jobs carry its project tag', async () => {
    const { lists, url } = renderList('&status=failed&projectId=projects-1&flowName=my_flow');
    await screen.findByRole('link', { name: 'train' });
    expect(lists()[0].url).toBe(
      `/api/v1/jobs?${SCOPE}&status=failed&tag=project%3Amy-flow&reverse=1&limit=50`,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show jobs of every flow' }));
    await vi.waitFor(() => expect(url()).not.toContain('flowName'));
    expect(url()).not.toContain('projectId');
  });

  it('loads the next 50 after the last job when the sentinel comes within 100 px', async () => {
    const page = Array.from({ length: 50 }, (_, i) =>
      jobWire({ id: `job-${String(i).padStart(2, '0')}`, name: `job-n${i}` }),
    );
    const { lists, observer } = renderList('', page);
    await screen.findByRole('link', { name: 'job-n49' });
    expect(observer.observers.at(-1)!.options?.rootMargin).toBe('0px 0px 100px 0px');
    observer.reveal();
    await vi.waitFor(() => expect(lists()).toHaveLength(2));
    expect(lists()[1].url).toBe(
      `/api/v1/jobs?${SCOPE}&status=running&reverse=1&limit=50&cursor=job-49`,
    );
  });

  it('kills a job only after confirmation and says "Job killed"', async () => {
    const { calls } = renderList();
    await expectOffered('Kill train');
    fireEvent.click(screen.getByRole('button', { name: 'Kill train' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Job train will be stopped/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Kill' }));
    expect(await screen.findByText('Job killed')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')!.url).toBe(`/api/v1/jobs/${JOB_ID}`);
  });

  it('offers Kill for pending, running and suspended jobs only', async () => {
    const statuses = [
      'pending',
      'running',
      'suspended',
      'succeeded',
      'failed',
      'cancelled',
    ] as const;
    renderList(
      '&status=all',
      statuses.map((status, i) => jobWire({ id: `job-${i}`, name: `j-${status}`, status })),
    );
    await screen.findByRole('link', { name: 'j-pending' });
    const enabled = () =>
      statuses.filter(
        (s) => !(screen.getByRole('button', { name: `Kill j-${s}` }) as HTMLButtonElement).disabled,
      );
    await vi.waitFor(() => expect(enabled()).toEqual(['pending', 'running', 'suspended']));
  });

  it('marks each waiting job with its place in the queue', async () => {
    renderList('&status=all', [
      jobWire({ id: 'job-0', name: 'j-pending', status: 'pending', queue_position: 3 }),
      jobWire({ id: 'job-1', name: 'j-suspended', status: 'suspended', queue_position: 1 }),
      jobWire({ id: 'job-2', name: 'j-running', status: 'running' }),
    ]);
    const row = async (name: string) => (await screen.findByRole('link', { name })).closest('tr')!;
    expect(within(await row('j-pending')).getByText('#3 in queue')).toBeTruthy();
    expect(within(await row('j-suspended')).getByText('#1 in queue')).toBeTruthy();
    expect(within(await row('j-running')).queryByText(/in queue/)).toBeNull();
  });

  it('reads the list again every 10 seconds while a job is suspended', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { lists } = renderList('&status=all', [
      jobWire({ name: 'j-suspended', status: 'suspended', queue_position: 2 }),
    ]);
    await screen.findByRole('link', { name: 'j-suspended' });
    expect(lists()).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await vi.waitFor(() => expect(lists()).toHaveLength(2));
  });

  it('keeps everyone from Create new job where the installation refuses every job, and says why', async () => {
    renderList('', [], [processRuntimeRoute({ refused_reason: JOBS_REFUSED })]);
    await expectWhyNot('Create new job', JOBS_REFUSED);
  });

  it('keeps a project reader from Create new job and Kill, and says why', async () => {
    renderList(
      '',
      [jobWire({ status: 'running' })],
      [permissionsOf([{ prefix: 'job://default/acme/vision', have: 'read' }])],
    );
    const why = 'You have read access here; this needs write access';
    await expectWhyNot('Create new job', why);
    await expectWhyNot('Kill train', why);
  });
});
