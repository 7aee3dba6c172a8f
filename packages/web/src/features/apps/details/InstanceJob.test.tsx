import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { JOB_ID, jobWire } from '../../jobs/test-fixtures';
import { appWire, INSTANCE, INSTANCE_ID, renderApps, V1 } from '../test-fixtures';

const ROUTE = `/apps/instances/${INSTANCE_ID}`;
const params = [
  { url: new RegExp(`^${V1}/instances/${INSTANCE_ID}/(input|output|events)$`), status: 404 },
];

/** Observability follows the instance's main job with the jobs area's chart. */
describe("An app's Observability", () => {
  it("charts the main job's live load over its top socket", async () => {
    const { sockets } = renderApps(`${ROUTE}/observability`, [
      { url: INSTANCE, body: appWire({ job_ids: [JOB_ID] }) },
      { url: `/api/v1/jobs/${JOB_ID}`, body: jobWire() },
      ...params,
    ]);
    await vi.waitFor(() => expect(sockets.map((s) => s.url)).toHaveLength(1));
    expect(sockets[0].url).toContain(`/${JOB_ID}/top`);
  });

  it('says so when the app has no job yet', async () => {
    renderApps(`${ROUTE}/observability`, [
      { url: INSTANCE, body: appWire({ state: 'queued', job_ids: [] }) },
      ...params,
    ]);
    expect(await screen.findByText('The app has no job yet.')).toBeTruthy();
  });
});
