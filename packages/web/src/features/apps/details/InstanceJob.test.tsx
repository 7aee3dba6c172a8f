import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { JOB_ID, jobWire, MONITORING, stubWebSocket, textStream } from '../../jobs/test-fixtures';
import { appWire, INSTANCE, INSTANCE_ID, renderApps, V1 } from '../test-fixtures';

const ROUTE = `/apps/instances/${INSTANCE_ID}`;
const params = [
  { url: new RegExp(`^${V1}/instances/${INSTANCE_ID}/(input|output|events)$`), status: 404 },
];

/** Log and Observability follow the instance's main job with the jobs area's viewers. */
describe("An app's Log and Observability", { timeout: 20_000 }, () => {
  it("streams the main job's log", async () => {
    const view = renderApps(`${ROUTE}/log`, [
      { url: INSTANCE, body: appWire({ job_ids: [JOB_ID] }) },
      { url: `/api/v1/jobs/${JOB_ID}`, body: jobWire() },
      ...params,
    ]);
    const json = view.fetchMock.getMockImplementation()!;
    const stream = textStream();
    const logUrls: string[] = [];
    view.fetchMock.mockImplementation(async (input, init = {}) => {
      if (!/\/log(\?|$)/.test(String(input))) return json(input, init);
      logUrls.push(String(input));
      return stream.response();
    });
    await vi.waitFor(() => expect(logUrls).toEqual([`${MONITORING}/${JOB_ID}/log`]));
    stream.write('listening on 8080\nready\n');
    expect(await screen.findByText(/^2 lines/)).toBeTruthy();
  });

  it("charts the main job's live load over its top socket", async () => {
    const sockets = stubWebSocket();
    renderApps(`${ROUTE}/observability`, [
      { url: INSTANCE, body: appWire({ job_ids: [JOB_ID] }) },
      { url: `/api/v1/jobs/${JOB_ID}`, body: jobWire() },
      ...params,
    ]);
    await vi.waitFor(() => expect(sockets.map((s) => s.url)).toHaveLength(1));
    expect(sockets[0].url).toContain(`/${JOB_ID}/top`);
  });

  it('says so when the app has no job yet', async () => {
    renderApps(`${ROUTE}/log`, [
      { url: INSTANCE, body: appWire({ state: 'queued', job_ids: [] }) },
      ...params,
    ]);
    expect(await screen.findByText('The app has no job yet.')).toBeTruthy();
  });
});
