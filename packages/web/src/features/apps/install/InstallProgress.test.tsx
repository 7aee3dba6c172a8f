import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findEnabled } from '../../../test/world-permissions';
import type { JobWire } from '@orrery/contract';
import type { CannedResponse } from '../../../test/fetch';
import { jobWire } from '../../jobs/test-fixtures';
import { settled } from '../../../test/render';
import { appWire, INSTANCE, renderApps, templateWire, V1 } from '../test-fixtures';

const INSTALLER = 'job-installer-9';
const JOB_URL = `/api/v1/jobs/${INSTALLER}`;

const pendingJob = (over: Partial<JobWire> = {}) =>
  jobWire({
    id: INSTALLER,
    status: 'pending',
    history: {
      status: 'pending',
      reason: 'ContainerCreating',
      description: null,
      created_at: '2026-01-02T03:04:05.000Z',
      run_time_seconds: 0,
      restarts: 0,
    },
    ...over,
  });

afterEach(() => {
  vi.useRealTimers();
});

describe('Install progress', () => {
  it('polls the installer job every 5 s until the instance is errored, then stops', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // The instance page's own job is another one: the page follows the one the install named.
    const instance: CannedResponse = {
      url: INSTANCE,
      body: appWire({ state: 'queued', job_ids: ['job-main'] }),
    };
    const job: CannedResponse = { url: JOB_URL, body: pendingJob() };
    const { calls } = renderApps('/apps/shell/install', [
      { url: `${V1}/templates/shell/latest`, body: templateWire('shell') },
      {
        method: 'POST',
        url: `${V1}/instances`,
        body: { ...appWire({ state: 'queued' }), outputParams: { jobId: INSTALLER } },
      },
      instance,
      job,
      { url: /\/instances\/[^/]+\/(input|output|events)/, status: 404 },
      { url: /\/templates\/shell\/1\.0\.0$/, body: templateWire('shell') },
    ]);
    fireEvent.click(await findEnabled('Install'));

    const progress = await screen.findByRole('status', { name: 'Installer job' });
    expect(progress.textContent).toContain('pending');
    expect(progress.textContent).toContain('ContainerCreating');
    const jobCalls = () => calls.filter((c) => c.url === JOB_URL).length;
    const instanceCalls = () => calls.filter((c) => c.url === INSTANCE).length;
    const [firstJob, firstInstance] = [jobCalls(), instanceCalls()];

    // The job fails: the poll 5 s later sees it and refreshes the instance at once, long before
    // the instance's own 10 s refresh.
    job.body = pendingJob({
      status: 'failed',
      history: {
        ...pendingJob().history,
        status: 'failed',
        reason: 'Error',
        description: 'exit 1',
      },
    });
    instance.body = appWire({ state: 'errored', job_ids: ['job-main'] });
    await act(() => vi.advanceTimersByTimeAsync(4_900));
    expect(jobCalls()).toBe(firstJob);
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(jobCalls()).toBe(firstJob + 1);
    await vi.waitFor(() => expect(instanceCalls()).toBe(firstInstance + 1));
    expect(await screen.findByText('errored', { selector: '.mantine-Badge-label' })).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Installer job' })).toBeNull();

    const settled = jobCalls();
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(jobCalls()).toBe(settled);
  });

  it('never shows a wait once the installer job has failed, and reads the instance until it says why', async () => {
    const failedJob = pendingJob({
      status: 'failed',
      history: {
        ...pendingJob().history,
        status: 'failed',
        reason: 'ContainerCannotRun',
        description: 'Volumes need bubblewrap on the process runtime',
      },
    });
    // The instance lags behind its job for a moment: still queued, waiting for capacity.
    const instance: CannedResponse = {
      url: INSTANCE,
      body: appWire({
        state: 'queued',
        job_ids: [INSTALLER],
        startup: { step: 'waiting_for_capacity', since: new Date().toISOString(), message: null },
      }),
    };
    const { calls } = renderApps(`/apps/instances/${appWire().id}`, [
      instance,
      { url: JOB_URL, body: failedJob },
      { url: /\/instances\/[^/]+\/(input|output|events)/, status: 404 },
      { url: /\/templates\/shell\/1\.0\.0$/, body: templateWire('shell') },
    ]);
    const progress = await screen.findByRole('status', { name: 'Installer job' });
    expect(progress.textContent).toContain('failed');
    expect(progress.textContent).toContain('Volumes need bubblewrap on the process runtime');
    expect(screen.queryByRole('status', { name: 'Waiting for capacity' })).toBeNull();
    // The server derives the state a moment later: the page reads the instance until it does.
    const message = 'Job job-installer-9 failed: Volumes need bubblewrap on the process runtime';
    instance.body = appWire({ state: 'errored', job_ids: [INSTALLER], state_message: message });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The app failed');
    expect(alert.textContent).toContain(message);
    const reads = calls.filter((c) => c.url === INSTANCE).length;
    expect(reads).toBeGreaterThan(1);
  });

  it('follows the installer job’s status as the server pushes it', async () => {
    const job: CannedResponse = { url: JOB_URL, body: pendingJob() };
    const instance: CannedResponse = {
      url: INSTANCE,
      body: appWire({ state: 'queued', job_ids: [INSTALLER] }),
    };
    const { sockets } = renderApps(`/apps/instances/${appWire().id}`, [
      instance,
      job,
      { url: /\/instances\/[^/]+\/(input|output|events)/, status: 404 },
      { url: /\/templates\/shell\/1\.0\.0$/, body: templateWire('shell') },
    ]);
    await screen.findByRole('status', { name: 'Installer job' });
    await vi.waitFor(() =>
      expect(sockets.map((s) => s.url)).toContain(
        `ws://localhost:8080/api/v1/jobs/${INSTALLER}/status_ws`,
      ),
    );
    instance.body = appWire({ state: 'healthy', job_ids: [INSTALLER] });
    const push = sockets.find((s) => s.url.endsWith('/status_ws'))!;
    act(() => push.onmessage?.({ data: JSON.stringify(pendingJob({ status: 'running' })) }));
    // The new status reads the instance at once: healthy, and the progress line goes.
    expect(await screen.findByText('healthy', { selector: '.mantine-Badge-label' })).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Installer job' })).toBeNull();
  });

  it('follows the instance’s own job after a reload, and shows nothing once healthy', async () => {
    const { calls, queryClient } = renderApps(`/apps/instances/${appWire().id}`, [
      { url: INSTANCE, body: appWire({ state: 'healthy', job_ids: [INSTALLER] }) },
      { url: JOB_URL, body: pendingJob() },
      { url: /\/instances\/[^/]+\/(input|output|events)/, status: 404 },
      { url: /\/templates\/shell\/1\.0\.0$/, body: templateWire('shell') },
    ]);
    await screen.findByRole('heading', { name: 'My shell', level: 2 });
    await settled(queryClient);
    expect(screen.queryByRole('status', { name: 'Installer job' })).toBeNull();
    expect(calls.some((c) => c.url === JOB_URL)).toBe(false);
  });

  it('shows the instance’s own job while it starts when the page is opened directly', async () => {
    renderApps(`/apps/instances/${appWire().id}`, [
      { url: INSTANCE, body: appWire({ state: 'progressing', job_ids: [INSTALLER] }) },
      { url: JOB_URL, body: pendingJob({ status: 'running' }) },
      { url: /\/instances\/[^/]+\/(input|output|events)/, status: 404 },
      { url: /\/templates\/shell\/1\.0\.0$/, body: templateWire('shell') },
    ]);
    const progress = await screen.findByRole('status', { name: 'Installer job' });
    expect(progress.textContent).toContain('running');
  });
});
