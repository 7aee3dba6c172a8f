import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../../test/fetch';
import { worldPermissions } from '../../../test/world-permissions';
import { jobWire } from '../../jobs/test-fixtures';
import { BAKE_POLL_MS } from '../texts';
import {
  BAKE_ID,
  BAKE_URL,
  bakeWire,
  FLOW_ID,
  renderFlows,
  TASKS_URL,
  taskWire,
} from '../test-fixtures';

const ROUTE = `/${FLOW_ID}/demo_flow/bakes/${BAKE_ID}`;
const JOB = 'job-5c0ffee0-aaaa-4bbb-8ccc-000000000005';
const OLD_JOB = 'job-6c0ffee0-aaaa-4bbb-8ccc-000000000006';

const node = (label: string) => screen.findByLabelText(new RegExp(`^Task ${label}:`));

describe('Bake graph', () => {
  it('says "No tasks found" for a bake without tasks', async () => {
    stubFetch([
      worldPermissions(),
      { url: BAKE_URL, body: bakeWire('succeeded', { graphs: { '': {} } }) },
      { url: TASKS_URL, body: [] },
    ]);
    renderFlows(ROUTE);
    expect(await screen.findByText('No tasks found')).toBeTruthy();
  });

  it('draws every task of the graph in its status, those not started as waiting', async () => {
    stubFetch([
      worldPermissions(),
      { url: BAKE_URL, body: bakeWire('running', { name: 'nightly' }) },
      {
        url: TASKS_URL,
        body: [
          taskWire('first', ['pending', 'running', 'succeeded']),
          taskWire('left', ['pending', 'running']),
          taskWire('right', ['pending', 'failed']),
        ],
      },
    ]);
    renderFlows(`${ROUTE}/nightly`);
    expect(await screen.findByText('Bake nightly')).toBeTruthy();
    await waitFor(async () =>
      expect((await node('first')).getAttribute('data-status')).toBe('succeeded'),
    );
    expect((await node('left')).getAttribute('data-status')).toBe('running');
    expect((await node('right')).getAttribute('data-status')).toBe('failed');
    expect((await node('last')).getAttribute('data-status')).toBe('waiting');
    // A running bake can be killed from its graph as well.
    expect(screen.getByRole('button', { name: 'Kill' })).toBeTruthy();
  });

  it('follows a running bake until it ends, then stops asking', async () => {
    const { calls, fetchMock } = stubFetch([worldPermissions()]);
    let done = false;
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      calls.push({ method: 'GET', url, headers: {}, body: undefined });
      const body =
        url === BAKE_URL
          ? bakeWire(done ? 'succeeded' : 'running')
          : [
              taskWire(
                'first',
                done ? ['pending', 'running', 'succeeded'] : ['pending', 'running'],
              ),
            ];
      return new Response(JSON.stringify(body), { status: 200 });
    });
    // The page polls every BAKE_POLL_MS on a fake clock, moved on by the test.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    renderFlows(ROUTE);
    await waitFor(async () =>
      expect((await node('first')).getAttribute('data-status')).toBe('running'),
    );
    done = true;
    // The next poll brings the final statuses.
    await act(() => vi.advanceTimersByTimeAsync(BAKE_POLL_MS));
    await waitFor(async () =>
      expect((await node('first')).getAttribute('data-status')).toBe('succeeded'),
    );
    expect(screen.queryByRole('button', { name: 'Kill' })).toBeNull();
    const asked = calls.length;
    await act(() => vi.advanceTimersByTimeAsync(BAKE_POLL_MS * 3));
    expect(calls.length).toBe(asked);
  });

  it('follows a killed bake’s tasks until their jobs are killed, then stops asking', async () => {
    const { calls, fetchMock } = stubFetch([]);
    let killed = false;
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      calls.push({ method: 'GET', url, headers: {}, body: undefined });
      // The attempt is cancelled at once; its task only once its job has been killed.
      const body =
        url === BAKE_URL
          ? bakeWire('cancelled')
          : [taskWire('first', ['pending', 'running', ...(killed ? ['cancelled' as const] : [])])];
      return new Response(JSON.stringify(body), { status: 200 });
    });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    renderFlows(ROUTE);
    await waitFor(async () =>
      expect((await node('first')).getAttribute('data-status')).toBe('running'),
    );
    // A cancelled bake with a running task is still asked about.
    const before = calls.length;
    await act(() => vi.advanceTimersByTimeAsync(BAKE_POLL_MS));
    await waitFor(() => expect(calls.length).toBeGreaterThan(before));
    killed = true;
    await act(() => vi.advanceTimersByTimeAsync(BAKE_POLL_MS));
    await waitFor(async () =>
      expect((await node('first')).getAttribute('data-status')).toBe('cancelled'),
    );
    const asked = calls.length;
    await act(() => vi.advanceTimersByTimeAsync(BAKE_POLL_MS * 3));
    expect(calls.length).toBe(asked);
  });

  it('opens a task’s details: history, job link, outputs, state and its job’s log', async () => {
    const { calls } = stubFetch([
      worldPermissions(),
      { url: BAKE_URL, body: bakeWire('succeeded') },
      {
        url: TASKS_URL,
        body: [
          taskWire('first', ['pending', 'running', 'succeeded'], {
            raw_id: JOB,
            outputs: { word: 'hello' },
            state: { seen: '1' },
          }),
        ],
      },
      { url: `/api/v1/jobs/${JOB}`, body: jobWire({ id: JOB, status: 'succeeded' }) },
      { url: /\/log/, text: { body: '::set-output name=word::hello\n', type: 'text/plain' } },
    ]);
    renderFlows(ROUTE);
    await waitFor(async () =>
      expect((await node('first')).getAttribute('data-status')).toBe('succeeded'),
    );
    fireEvent.click(await node('first'));
    const drawer = await screen.findByRole('dialog', { name: 'Task first' });
    expect(within(drawer).getByText('Status history')).toBeTruthy();
    expect(within(drawer).getAllByText('running')).toHaveLength(1);
    expect(within(drawer).getByText('word')).toBeTruthy();
    expect(within(drawer).getByText('hello')).toBeTruthy();
    expect(within(drawer).getByText('seen')).toBeTruthy();
    const link = within(drawer).getByText(JOB).closest('a')!;
    expect(link.getAttribute('href')).toContain(`/jobs/${JOB}`);
    // The job page's own log viewer, reading this job's log.
    expect(await within(drawer).findByRole('log', { name: 'Job log' })).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.url.includes(`/${JOB}/log`))).toBe(true));
  });

  it('says how a failed task’s job ended, even with an empty log', async () => {
    const failed = jobWire({ id: JOB, status: 'failed' });
    failed.history = { ...failed.history, exit_code: 3, reason: 'Error', description: null };
    stubFetch([
      worldPermissions(),
      { url: BAKE_URL, body: bakeWire('failed') },
      {
        url: TASKS_URL,
        body: [taskWire('first', ['pending', 'running', 'failed'], { raw_id: JOB })],
      },
      { url: `/api/v1/jobs/${JOB}`, body: failed },
      { url: /\/log/, text: { body: '', type: 'text/plain' } },
    ]);
    renderFlows(ROUTE);
    fireEvent.click(await node('first'));
    const drawer = await screen.findByRole('dialog', { name: 'Task first' });
    expect(await within(drawer).findByText('Exit code 3: Error')).toBeTruthy();
  });

  it('names the job a cached task’s results came from', async () => {
    stubFetch([
      worldPermissions(),
      { url: BAKE_URL, body: bakeWire('succeeded') },
      { url: TASKS_URL, body: [taskWire('first', ['cached'], { raw_id: OLD_JOB, outputs: {} })] },
    ]);
    renderFlows(ROUTE);
    await waitFor(async () =>
      expect((await node('first')).getAttribute('data-status')).toBe('cached'),
    );
    fireEvent.click(await node('first'));
    const drawer = await screen.findByRole('dialog', { name: 'Task first' });
    expect(within(drawer).getByText('Cached from')).toBeTruthy();
    expect(within(drawer).getByText(OLD_JOB).closest('a')!.getAttribute('href')).toContain(
      `/jobs/${OLD_JOB}`,
    );
    expect(within(drawer).queryByText('Log')).toBeNull();
  });

  it('shows the server’s message for a bake it cannot find', async () => {
    stubFetch([
      worldPermissions(),
      { url: BAKE_URL, status: 404, body: { error: 'not_found', message: 'Bake not found' } },
    ]);
    renderFlows(ROUTE);
    expect(await screen.findByText('Bake not found')).toBeTruthy();
  });
});
