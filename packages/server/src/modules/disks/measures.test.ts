import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';
import { diskVolumePath } from './service.js';

const Q = 'org_name=acme&project_name=vision';

/**
 * A disk list shows a measurement up to MEASURE_MAX_AGE_MS old, kept by the server that made it:
 * another server in the same process (a test's, or one started again on the same data) measures
 * the disk itself instead of reading the first one's copy.
 */
describe('disk measurements across servers', () => {
  let first: TestServer | undefined;
  let second: TestServer | undefined;
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
  });

  it('are each server’s own', async () => {
    first = await startTestServer({}, { persistent: true });
    const { owner } = await tenancy(first);
    const made = await call(first, 'POST', '/api/v1/disk', owner, {
      org_name: 'acme',
      project_name: 'vision',
      storage: 1000,
      name: 'kept',
    });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    // Both lists at the same moment: a measurement the first server kept would still be fresh.
    const moment = Date.now();
    const usedAt = async (s: TestServer, u: TestUser) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(moment);
      try {
        const list = await call(s, 'GET', `/api/v1/disk?${Q}`, u);
        expect(list.status).toBe(200);
        return list.body.find((d: { id: string }) => d.id === id).used_bytes;
      } finally {
        vi.useRealTimers();
      }
    };
    expect(await usedAt(first, owner)).toBe(0);
    const dir = await diskVolumePath(first.ctx, id);
    const state = first.state;
    await first.halt();
    first = undefined;
    writeFileSync(join(dir, 'a.bin'), Buffer.alloc(300));

    second = await startTestServer({}, { restartOf: state });
    expect(await usedAt(second, owner)).toBe(300);
  });
});
