import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { afterEach, describe, expect, it } from 'vitest';
import { ContainerLogs } from './logs.js';

/**
 * The archive of a stopped container's log when the engine's answers change under it. The engine
 * is a stand-in here (a container that is inspected, then gone): the real dockerd's files drive
 * the same code in driver.test.ts and gang.test.ts, where this race is a matter of timing.
 */
describe('ContainerLogs archive', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  /** Logs whose container was inspected (stopped), and whose log request then fails with `status`. */
  const logsFailingWith = (status: number) => {
    const dir = mkdtempSync(join(tmpdir(), 'orrery-logs-'));
    dirs.push(dir);
    const failure = Object.assign(new Error(`(HTTP code ${status})`), { statusCode: status });
    const container = () =>
      ({ logs: () => Promise.reject(failure) }) as unknown as Docker.Container;
    const stopped = { Id: 'c1', State: { Running: false }, Config: { Tty: false } };
    return new ContainerLogs(dir, container, async () => stopped as Docker.ContainerInspectInfo);
  };

  it('ends quietly when the container is removed between its inspection and its log', async () => {
    const logs = logsFailingWith(404);
    await expect(logs.archive('job-1')).resolves.toBeUndefined();
    await expect(logs.settled()).resolves.toBeUndefined();
  });

  it('reports another failure to the archive’s caller, and still lets the driver close', async () => {
    const logs = logsFailingWith(500);
    const archived = expect(logs.archive('job-1')).rejects.toThrow('(HTTP code 500)');
    await expect(logs.settled()).resolves.toBeUndefined();
    await archived;
  });
});
