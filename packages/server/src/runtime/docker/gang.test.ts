import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { canRunDockerd, importBusybox, startDockerd, type Dockerd } from '../../test/dockerd.mjs';
import { DockerDriver } from './driver.js';
import type { JobSpec, ObservedState } from '../driver.js';
import { isolationTable } from './isolation.js';
import { mergedLog } from '../gang.js';
import { listening } from '../../net/ports.js';
import { RANK_EXCHANGE_BUSYBOX } from '../../test/gang-programs.js';

import { spec as jobSpec, until as untilState } from '../../test/process-jobs.js';

const IMAGE = 'busybox:orrery';
/** Blocks until the job is stopped: the fifo never gets a writer, and no timer ends it. */
const WAIT = 'mkfifo /tmp/wait && read _ < /tmp/wait';
const spec = (command: string, extra: Partial<JobSpec> = {}) =>
  jobSpec(command, {
    image: IMAGE,
    limits: { cpu: 0.5, memory: 128 * 2 ** 20, shm: false },
    ...extra,
  });

/**
 * Jobs of several workers (docs/jobs.md "Distributed jobs") as containers on a dockerd of the
 * test's own (as in driver.test.ts), on the isolated network the server's jobs use.
 */
describe.skipIf(!canRunDockerd)('DockerDriver, jobs of several workers', () => {
  let dockerd: Dockerd;
  let driver: DockerDriver;
  const dataDir = mkdtempSync(join(tmpdir(), 'orrery-docker-gang-'));
  const network = `orrery-gang-test-${process.pid}`;
  const subnet = `10.${150 + (process.pid % 50)}.${process.pid % 250}.0/24`;

  const until = <T extends ObservedState['state']>(id: string, state: T) =>
    untilState(driver, id, state, 60_000);
  const inspect = (name: string) => JSON.parse(dockerd.docker(['inspect', name]))[0];
  const networks = () => dockerd.docker(['network', 'ls', '--format', '{{.Name}}']).split('\n');
  const log = async (id: string, worker?: number) =>
    text(await driver.logs(id, { follow: false, timestamps: false, worker }));

  beforeAll(async () => {
    dockerd = await startDockerd();
    importBusybox(dockerd, IMAGE);
    dockerd.docker(['network', 'create', '--subnet', subnet, network]);
    driver = await DockerDriver.connect({
      dataDir,
      dockerHost: dockerd.host,
      network,
      killGraceMs: 1000,
    });
  }, 120_000);
  afterAll(async () => {
    await driver?.close();
    await dockerd?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs `sh -c` in the job's rank 0, or the worker named: its output. */
  const sh = async (id: string, script: string, worker?: number) => {
    const session = await driver.exec(id, {
      command: ['sh', '-c', script],
      tty: false,
      stdin: false,
      worker,
    });
    const [out, err] = await Promise.all([text(session.stdout), text(session.stderr!)]);
    await session.exitCode;
    return out + err;
  };

  it('runs two workers that exchange their ranks on the job’s own network, then removes it', async () => {
    expect(driver.gangs).toBe(true);
    const s = spec(RANK_EXCHANGE_BUSYBOX, { workers: 2 });
    await driver.start(s);
    expect(await until(s.id, 'exited')).toMatchObject({ exitCode: 0 });
    expect(await driver.list()).toEqual(expect.arrayContaining([s.id]));
    // A container per rank, named after the job and the rank, told the master's address.
    const ranks = [inspect(`orrery-job-${s.id}`), inspect(`orrery-job-${s.id}.w1`)];
    for (const [rank, c] of ranks.entries()) {
      expect(c.Config.Env).toEqual(
        expect.arrayContaining([
          `RANK=${rank}`,
          'WORLD_SIZE=2',
          'MASTER_ADDR=worker-0',
          'MASTER_PORT=29500',
        ]),
      );
      expect(Object.keys(c.NetworkSettings.Networks).sort()).toEqual(
        [network, `orrery-gang-${s.id}`].sort(),
      );
    }
    const merged = (await log(s.id)).trim().split('\n').sort();
    expect(merged).toEqual(['rank 0 of 2 heard rank 1', 'rank 1 of 2 heard rank 0']);
    expect(await log(s.id, 0)).toBe('rank 0 of 2 heard rank 1\n');
    expect(await log(s.id, 1)).toBe('rank 1 of 2 heard rank 0\n');
    const bridge = `br-${inspect(`orrery-gang-${s.id}`).Id.slice(0, 12)}`;
    expect(execFileSync('nft', ['list', 'tables'], { encoding: 'utf8' })).toContain(
      isolationTable(bridge),
    );
    await driver.remove(s.id);
    expect(await driver.observe(s.id)).toEqual({ state: 'missing' });
    expect(networks()).not.toContain(`orrery-gang-${s.id}`);
    expect(execFileSync('nft', ['list', 'tables'], { encoding: 'utf8' })).not.toContain(
      isolationTable(bridge),
    );
    // The logs stay, merged and each worker's.
    expect((await log(s.id)).trim().split('\n').sort()).toEqual(merged);
    expect(await log(s.id, 1)).toBe('rank 1 of 2 heard rank 0\n');
  });

  it('fails the job when a worker fails, having stopped the others; kill stops them all', async () => {
    const s = spec(`if [ "$RANK" = 1 ]; then echo failing; exit 3; fi; ${WAIT}`, {
      workers: 3,
    });
    await driver.start(s);
    expect(await until(s.id, 'exited')).toMatchObject({
      exitCode: 3,
      message: 'Worker 1 of 3 exited with code 3; the other workers were stopped',
    });
    for (const name of [`orrery-job-${s.id}`, `orrery-job-${s.id}.w2`]) {
      expect(inspect(name).State.Running).toBe(false);
    }
    expect(await log(s.id, 1)).toBe('failing\n');

    const killed = spec(WAIT, { workers: 2 });
    await driver.start(killed);
    await until(killed.id, 'running');
    const [free] = await driver.capacity();
    await driver.kill(killed.id);
    expect(await driver.observe(killed.id)).toMatchObject({ state: 'exited' });
    for (const name of [`orrery-job-${killed.id}`, `orrery-job-${killed.id}.w1`]) {
      expect(inspect(name).State.Running).toBe(false);
    }
    // Both workers had held their share of the engine's capacity.
    const [after] = await driver.capacity();
    expect(after.availableCpu - free.availableCpu).toBeCloseTo(1);
    await Promise.all([driver.remove(s.id), driver.remove(killed.id)]);
  });

  it('serves the job’s HTTP port from worker 0, published on 127.0.0.1', async () => {
    const s = spec(
      `if [ "$RANK" = 0 ]; then echo "worker $RANK" > /tmp/index.html && exec httpd -f -p 8080 -h /tmp; fi; ${WAIT}`,
      { workers: 2, httpPort: 8080 },
    );
    await driver.start(s);
    await until(s.id, 'running');
    const endpoint = await vi.waitFor(
      async () => {
        const e = await driver.endpoint(s.id);
        expect(e).not.toBeNull();
        return e!;
      },
      { timeout: 10_000 },
    );
    expect(endpoint.host).toBe('127.0.0.1');
    const res = await fetch(`http://127.0.0.1:${endpoint.port}/index.html`);
    expect(await res.text()).toBe('worker 0\n');
    await driver.remove(s.id);
  });

  const MB = 2 ** 20;
  /** A shell that holds a string of 24 MB until the job is stopped (`sh -c` is not replaced). */
  const HOLD = `x=$(head -c 25165824 /dev/zero | tr "\\0" a); ${WAIT}; echo "\${#x}"`;
  /**
   * Until the worker's string is made (its shell has gone on to make the fifo it waits on): while
   * it is being read, the shell's buffers hold more than the string, for a moment.
   */
  const holding = (id: string, worker: number) =>
    vi.waitFor(
      async () => expect(await sh(id, 'test -p /tmp/wait && echo held', worker)).toBe('held\n'),
      { timeout: 20_000 },
    );
  /** The first sample of the job (or of one worker) with at least `atLeast` bytes in use. */
  const sample = async (id: string, worker?: number, atLeast = 24 * MB) => {
    const abort = new AbortController();
    for await (const x of driver.stats(id, abort.signal, worker)) {
      if (x.memoryBytes < atLeast) continue;
      abort.abort();
      return x;
    }
    throw new Error(`no stats for ${id}`);
  };

  it('adds up the workers’ stats', async () => {
    // Each worker's shell holds the string.
    const s = spec(HOLD, { workers: 2 });
    await driver.start(s);
    await until(s.id, 'running');
    await holding(s.id, 0);
    await holding(s.id, 1);
    // Each worker holds 24 MB: the sum is over worker 0's by at least the other's string.
    const zero = await sample(s.id, 0);
    const sum = await sample(s.id, undefined, 48 * MB);
    expect(sum.memoryBytes).toBeGreaterThan(zero.memoryBytes + 16 * MB);
    await driver.remove(s.id);
  });

  it('execs into the worker asked for, and streams that worker’s own stats', async () => {
    // Worker 1 alone holds the string.
    const s = spec(`if [ "$RANK" = 1 ]; then ${HOLD}; fi; ${WAIT}`, { workers: 2 });
    await driver.start(s);
    await until(s.id, 'running');
    const whoami = 'echo "$(hostname) $RANK"';
    expect(await sh(s.id, whoami, 1)).toBe(`${s.id}-w1 1\n`);
    expect(await sh(s.id, whoami, 0)).toBe(`${s.id} 0\n`);
    expect(await sh(s.id, whoami)).toBe(`${s.id} 0\n`);
    // Worker 1's string is in its own stats and in the sum, not in worker 0's.
    await holding(s.id, 1);
    const one = await sample(s.id, 1);
    const zero = await sample(s.id, 0, 1);
    expect(zero.memoryBytes).toBeLessThan(8 * MB);
    expect(one.memoryBytes).toBeGreaterThan(zero.memoryBytes + 16 * MB);
    expect((await sample(s.id)).memoryBytes).toBeGreaterThan(zero.memoryBytes + 16 * MB);
    await driver.remove(s.id);
  });

  it('lets the workers reach each other on any port, and nothing of other jobs or the host', async () => {
    const serve = 'echo served > /tmp/index.html && exec httpd -f -p 8080 -h /tmp';
    const gangCommand = `if [ "$RANK" = 1 ]; then ${serve}; fi; ${WAIT}`;
    const prober = spec(gangCommand, { workers: 2 });
    const otherGang = spec(gangCommand, { workers: 2 });
    const otherJob = spec(serve);
    for (const s of [prober, otherGang, otherJob]) await driver.start(s);
    for (const s of [prober, otherGang, otherJob]) await until(s.id, 'running');
    const otherJobAddress = inspect(`orrery-job-${otherJob.id}`).NetworkSettings.Networks[network]
      .IPAddress as string;
    const otherGangAddress = inspect(`orrery-job-${otherGang.id}.w1`).NetworkSettings.Networks[
      `orrery-gang-${otherGang.id}`
    ].IPAddress as string;
    const gateway = inspect(`orrery-gang-${prober.id}`).IPAM.Config[0].Gateway as string;
    const accepted: string[] = [];
    const host = await new Promise<Server>((resolve) => {
      const srv = createServer((c) => {
        accepted.push(String(c.remoteAddress));
        c.destroy();
      });
      srv.listen(0, '0.0.0.0', () => resolve(srv));
    });
    const hostPort = (host.address() as AddressInfo).port;
    // HTTP/1.0 by hand through nc (busybox's wget crashes in these containers).
    const get = (target: string, port: number) =>
      sh(
        prober.id,
        `printf 'GET /index.html HTTP/1.0\\r\\n\\r\\n' | nc -w 3 ${target} ${port} || echo unreached`,
      );
    try {
      // The peer answers on its alias, whatever it listens on.
      const peer = await vi.waitFor(
        async () => {
          const answer = await get('worker-1', 8080);
          expect(answer).toContain('served');
          return answer;
        },
        { timeout: 30_000, interval: 50 },
      );
      expect(peer).toMatch(/^HTTP\/1\.[01] 200 OK\r\n[^]*\r\n\r\nserved\n$/);
      // Each serves: the host reaches them, the prober does not.
      for (const target of [otherJobAddress, otherGangAddress]) {
        await vi.waitFor(async () => expect(await listening(8080, 500, target)).toBe(true), {
          timeout: 30_000,
        });
        const out = await get(target, 8080);
        expect(out).toContain('unreached');
        expect(out).not.toContain('served');
      }
      // Nor the host, on the job's network's gateway, where the host listens.
      expect(await listening(hostPort, 500, gateway)).toBe(true);
      accepted.length = 0;
      expect(await get(gateway, hostPort)).toMatch(/refused/);
      expect(accepted).toEqual([]);
    } finally {
      host.close();
      await Promise.all([prober, otherGang, otherJob].map((s) => driver.remove(s.id)));
    }
  });
});

describe('the merged log of a job of several workers', () => {
  // A worker's log as the driver reads it: stamped when asked.
  const stamped = (lines: string[]) => async (timestamps: boolean) =>
    Readable.from([lines.map((l) => (timestamps ? l : l.slice(l.indexOf(' ') + 1))).join('')]);
  const logs = [
    // Worker 0: the engine's nanoseconds; worker 1: an archived log's milliseconds.
    stamped(['2026-01-01T00:00:01.000000001Z a0\n', '2026-01-01T00:00:03.500000000Z a1\n']),
    stamped([
      '2026-01-01T00:00:01.000Z b0\n',
      '2026-01-01T00:00:02.250Z b1\n',
      '2026-01-01T00:00:04Z b2\n',
    ]),
  ];

  it('orders the workers’ lines by their times, each worker’s in its order', async () => {
    const plain = await text(mergedLog(logs, { follow: false, timestamps: false }));
    expect(plain).toBe('b0\na0\nb1\na1\nb2\n');
    const withTimes = await text(mergedLog(logs, { follow: false, timestamps: true }));
    expect(withTimes.split('\n')[1]).toBe('2026-01-01T00:00:01.000000001Z a0');
  });

  it('passes followed lines on as they come, whole', async () => {
    const followed = await text(mergedLog(logs, { follow: true, timestamps: false }));
    expect(followed.split('\n').sort()).toEqual(['', 'a0', 'a1', 'b0', 'b1', 'b2']);
  });
});
