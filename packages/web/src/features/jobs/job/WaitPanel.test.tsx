import type { JobScheduling, JobWire } from '@orrery/contract';
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { CannedResponse } from '../../../test/fetch';
import { GET, renderJob } from '../test-render';
import { JOB_ID, jobWire } from '../test-fixtures';

const SCHEDULING = `${GET}/scheduling`;
const TITLE = 'Why is this job waiting?';

const waitingJob = (status: 'pending' | 'suspended' = 'pending'): JobWire =>
  jobWire({
    status,
    history: {
      ...jobWire().history,
      status,
      reason: status === 'suspended' ? 'Preempted' : 'QuotaExhausted',
      started_at: undefined,
    },
    queue_position: 3,
  });

const scheduling = (over: Partial<JobScheduling> = {}): JobScheduling => ({
  job_id: JOB_ID,
  status: 'pending',
  position: 3,
  reasons: [],
  message: null,
  ...over,
});

const panel = () => screen.findByRole('region', { name: TITLE });
const schedulingGets = (calls: { url: string }[]) =>
  calls.filter((c) => c.url === SCHEDULING).length;

describe('Why is this job waiting?', () => {
  it("shows the job's place and each reason in plain words, with its figures", async () => {
    const answer = scheduling({
      reasons: [
        {
          kind: 'quota',
          scope: 'project',
          resource: 'nvidia_gpu',
          used: 2,
          requested: 1,
          nominal: 2,
          borrowing_limit: 1,
        },
        { kind: 'jobs_cap', used: 4, limit: 4 },
        { kind: 'behind', ahead: 2 },
      ],
    });
    renderJob(waitingJob(), '', [{ url: SCHEDULING, body: answer }]);
    const box = await panel();
    expect(await within(box).findByText('#3 in the queue')).toBeTruthy();
    expect(
      within(box).getByText(
        "Waiting for the project's quota of NVIDIA GPUs: 2 NVIDIA GPUs in use of 2 NVIDIA GPUs, borrowing up to 1 NVIDIA GPUs; the job needs 1 NVIDIA GPUs",
      ),
    ).toBeTruthy();
    expect(
      within(box).getByText("Waiting for the organization's jobs quota: 4 of 4 jobs run"),
    ).toBeTruthy();
    expect(within(box).getByText('Behind 2 job(s) of higher fair share or priority')).toBeTruthy();
    expect(within(box).getAllByRole('listitem')).toHaveLength(3);
  });

  it('says what is free on which node when no node has room', async () => {
    const answer = scheduling({
      position: 1,
      reasons: [
        {
          kind: 'capacity',
          short: ['nvidia_gpu'],
          free: [
            { node: 'gpu-1', pool: 'a100', free: { nvidia_gpu: 1, cpu: 6, memory: 32e9 } },
            { node: 'gpu-2', pool: 'a100', free: { nvidia_gpu: 0, cpu: 2 } },
          ],
        },
      ],
    });
    renderJob(waitingJob(), '', [{ url: SCHEDULING, body: answer }]);
    const box = await panel();
    expect(await within(box).findByText('#1 in the queue: the next job to start')).toBeTruthy();
    expect(
      within(box).getByText(
        'Waiting for free capacity: no node has the NVIDIA GPUs the job needs; most free on gpu-1: 1 NVIDIA GPUs',
      ),
    ).toBeTruthy();
    const table = within(box).getByRole('table', { name: 'Free capacity by node' });
    // The missing resource comes first, then what else the nodes report, in a fixed order.
    expect(
      within(table)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual([
      'NodeNode poolNVIDIA GPUsCPUMemory',
      'gpu-1a1001 NVIDIA GPUs6 CPU32 GB',
      'gpu-2a1000 NVIDIA GPUs2 CPU0 MB',
    ]);
  });

  it('names how many jobs give their capacity back, a reservation and a hold', async () => {
    const answer = scheduling({
      reasons: [
        { kind: 'preempting', victims: ['job-a', 'job-b'] },
        { kind: 'reserving', node: 'gpu-1' },
        { kind: 'held', message: 'There are no credits left for the organization acme' },
      ],
    });
    renderJob(waitingJob(), '', [{ url: SCHEDULING, body: answer }]);
    const box = await panel();
    expect(
      await within(box).findByText(
        'Starting soon: 2 preemptible job(s) are giving their capacity back',
      ),
    ).toBeTruthy();
    expect(
      within(box).getByText(
        'Waited long enough to reserve node gpu-1: nothing smaller starts there before it',
      ),
    ).toBeTruthy();
    expect(
      within(box).getByText('There are no credits left for the organization acme'),
    ).toBeTruthy();
  });

  it('says a suspended job was preempted and waits to start again', async () => {
    const answer = scheduling({
      status: 'suspended',
      position: 2,
      reasons: [{ kind: 'behind', ahead: 1 }],
    });
    renderJob(waitingJob('suspended'), '', [{ url: SCHEDULING, body: answer }]);
    const box = await panel();
    expect(within(box).getByText(/This job was preempted to give its capacity back/)).toBeTruthy();
    expect(await within(box).findByText('#2 in the queue')).toBeTruthy();
  });

  it("shows the server's message when the call fails", async () => {
    const message = 'You have no access to job ' + JOB_ID;
    renderJob(waitingJob(), '', [
      { url: SCHEDULING, status: 403, body: { error: 'forbidden', message } },
    ]);
    const box = await panel();
    expect(await within(box).findByText(message)).toBeTruthy();
  });

  it('is absent for a running job, which asks nothing of the scheduler', async () => {
    const { calls } = renderJob(jobWire({ status: 'running' }), '', [
      { url: SCHEDULING, body: scheduling() },
    ]);
    await screen.findByRole('heading', { name: 'train', level: 2 });
    expect(screen.queryByText(TITLE)).toBeNull();
    expect(schedulingGets(calls)).toBe(0);
  });

  it('reads the job again at once when the scheduler has already admitted it', async () => {
    const job: CannedResponse = { url: GET, body: waitingJob() };
    const { calls, queryClient } = renderJob(job, '', [
      { url: SCHEDULING, body: scheduling({ status: 'running', position: null }) },
    ]);
    // Rather than wait for the page's next refresh, 10 seconds on.
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await screen.findByRole('heading', { name: 'train', level: 2 });
    job.body = jobWire({ status: 'running' });
    await vi.waitFor(() => expect(calls.filter((c) => c.url === GET)).toHaveLength(2));
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['jobs', 'one', JOB_ID] });
    expect(screen.queryByText(TITLE)).toBeNull();
  });

  it('reads again every 10 seconds while the job waits, and is gone once it runs', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const job: CannedResponse = { url: GET, body: waitingJob() };
    const place: CannedResponse = {
      url: SCHEDULING,
      body: scheduling({ position: 3, reasons: [{ kind: 'behind', ahead: 2 }] }),
    };
    const { calls } = renderJob(job, '', [place]);
    const box = await panel();
    expect(await within(box).findByText('#3 in the queue')).toBeTruthy();
    expect(schedulingGets(calls)).toBe(1);

    place.body = scheduling({ position: 1, reasons: [], message: 'Starting soon' });
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(await within(box).findByText('#1 in the queue: the next job to start')).toBeTruthy();
    expect(within(box).getByText('Starting soon')).toBeTruthy();

    job.body = jobWire({ status: 'running' });
    place.body = scheduling({ status: 'running', position: null });
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await vi.waitFor(() => expect(screen.queryByText(TITLE)).toBeNull());
    const after = schedulingGets(calls);
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(schedulingGets(calls)).toBe(after);
  });
});
