import { describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, projectMember, submitJob, tenantServer } from '../../test/fixtures.js';

/** The metrics dashboard's data: the recorded load of a running job. */
describe('a job’s metrics history', () => {
  let s: TestServer;
  let owner: TestUser;
  tenantServer(
    (x) => ({ s, owner } = x),
    { ORRERY_RUNTIME: 'process' },
    { jobs: { metricsScanMs: 200 } },
  );

  const metrics = (id: string, who: TestUser) => call(s, 'GET', `/api/v1/jobs/${id}/metrics`, who);

  it('keeps the samples of a running job for a reader of its project; another organization gets 404', async () => {
    const id = await submitJob(s, owner, 'sh -c "while :; do :; done"');
    let samples: { cpu: number; memory_bytes: number; timestamp: number }[] = [];
    for (let i = 0; i < 150 && samples.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      samples = (await metrics(id, owner)).body.samples ?? [];
    }
    expect(samples.length).toBeGreaterThanOrEqual(3);
    // A busy loop uses most of a core; the samples are in time order within the last 15 minutes.
    expect(Math.max(...samples.map((x) => x.cpu))).toBeGreaterThan(0.3);
    expect(samples.every((x) => x.memory_bytes > 0)).toBe(true);
    const times = samples.map((x) => x.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBeGreaterThan(Date.now() / 1000 - 15 * 60);

    const reader = await projectMember(s, 'reader');
    const read = await metrics(id, reader);
    expect(read.status).toBe(200);
    expect(read.body.samples.length).toBeGreaterThanOrEqual(3);

    const stranger = await s.user();
    expect((await call(s, 'POST', '/api/v1/orgs', stranger, { name: 'other' })).status).toBe(201);
    const refused = await metrics(id, stranger);
    expect(refused.status).toBe(404);
    expect(JSON.stringify(refused.body)).not.toContain('"samples"');

    expect((await metrics('job-missing', owner)).status).toBe(404);
    await call(s, 'POST', `/api/v1/jobs/${id}/kill`, owner);
  });

  it('says the process runtime does not use the image nor save one', async () => {
    const r = await call(s, 'GET', '/api/v1/jobs/runtime', owner);
    expect(r.body).toEqual({ name: 'process', can_save_image: false, uses_image: false });
  });
});
