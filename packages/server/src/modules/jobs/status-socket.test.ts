import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { JOB_STATUS_WS_PROTOCOL } from '@orrery/contract';
import type { TestServer, TestUser } from '../../test/harness.js';
import { call, processServer, projectMember, submitJob } from '../../test/fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Frame = Record<string, any>;

/** Every frame the socket sends, parsed, and the code it closes with. */
const followed = (url: string, headers: Record<string, string>) =>
  new Promise<{ frames: Frame[]; code: number }>((resolve, reject) => {
    const frames: Frame[] = [];
    const ws = new WebSocket(url.replace(/^http/, 'ws'), [JOB_STATUS_WS_PROTOCOL], { headers });
    ws.on('message', (d: Buffer) => frames.push(JSON.parse(d.toString()) as Frame));
    ws.on('close', (code) => resolve({ frames, code }));
    ws.on('error', reject);
  });

/**
 * The job's status pushed (`status_ws`): the job JSON at once, again at each change of its
 * status, and the socket closed once the job has finished, so a page that follows it never shows
 * a finished job as pending.
 */
describe('job status socket', () => {
  let s: TestServer;
  let owner: TestUser;
  processServer((x) => ({ s, owner } = x));

  it('sends the job as GET answers it, each new status, and closes once it has finished', async () => {
    const id = await submitJob(s, owner, 'echo hi');
    const { frames, code } = await followed(`${s.url}/api/v1/jobs/${id}/status_ws`, owner.headers);
    expect(code).toBe(1000);
    expect(frames.length).toBeGreaterThan(0);
    const last = frames.at(-1)!;
    expect(last).toMatchObject({ id, status: 'succeeded', history: { status: 'succeeded' } });
    // What the page holds is the job as the API answers it.
    const got = (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body;
    expect(last).toMatchObject({
      uri: got.uri,
      owner: got.owner,
      container: got.container,
      history: { reason: got.history.reason, exit_code: 0, finished_at: got.history.finished_at },
      statuses: got.statuses,
    });
    // Each frame is a change: no status is sent twice in a row.
    const statuses = frames.map((f) => `${f.status}/${f.history.reason}`);
    expect(statuses.filter((x, i) => x === statuses[i - 1])).toEqual([]);
  });

  it('sends a finished job once and closes; a reader may follow, another tenant may not', async () => {
    const id = await submitJob(s, owner, 'exit 3');
    // Followed to its end first: then a new socket gets the one frame of the finished job.
    await followed(`${s.url}/api/v1/jobs/${id}/status_ws`, owner.headers);
    const reader = await projectMember(s, 'reader');
    const { frames, code } = await followed(`${s.url}/api/v1/jobs/${id}/status_ws`, reader.headers);
    expect(code).toBe(1000);
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ id, status: 'failed', history: { exit_code: 3 } });
  });
});
