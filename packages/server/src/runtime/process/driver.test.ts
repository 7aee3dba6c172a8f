import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JobSpec, RuntimeDriver } from '../driver.js';
import { ProcessDriver } from './driver.js';
import { allProcesses, tree } from './proc.js';
import { SLIRP } from './network.js';
import { BWRAP } from './sandbox.js';
import { logOf, spec, until } from '../../test/process-jobs.js';

const sandboxed = existsSync(BWRAP);
const dataDir = mkdtempSync(join(tmpdir(), 'orrery-process-'));

describe('ProcessDriver', () => {
  let driver: ProcessDriver;
  const started: string[] = [];
  const run = async (s: JobSpec, d: RuntimeDriver = driver) => {
    started.push(s.id);
    await d.start(s);
    return s.id;
  };

  beforeAll(() => {
    // Without bubblewrap or root, these jobs run only where the operator allows unsandboxed jobs;
    // as root with bubblewrap (where the security tests run) they are sandboxed all the same.
    driver = new ProcessDriver({ dataDir, killGraceMs: 2000, unsandboxedJobs: 'allow' });
  });
  afterAll(async () => {
    for (const id of started) await driver.kill(id);
    await driver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`says whether it sandboxes (bubblewrap ${sandboxed ? 'installed' : 'missing'})`, () => {
    expect(driver.warning === undefined).toBe(sandboxed);
  });

  it('runs a command and reports its exit code', async () => {
    const ok = await run(spec('echo hello'));
    const bad = await run(spec('echo oops >&2; exit 3'));
    expect(await until(driver, ok, 'exited')).toMatchObject({ exitCode: 0 });
    expect(await until(driver, bad, 'exited')).toMatchObject({ exitCode: 3 });
    expect(await logOf(driver, ok)).toBe('hello\n');
    expect(await logOf(driver, bad)).toBe('oops\n');
    expect(await driver.list()).toEqual(expect.arrayContaining([ok, bad]));
  });

  it('passes env and a free port in PORT, and reaches the job there', async () => {
    const server = `${JSON.stringify(process.execPath)} -e "require('http').createServer((q, r) => r.end(process.env.GREETING)).listen(process.env.PORT, '127.0.0.1')"`;
    const id = await run(spec(server, { env: { GREETING: 'hi there' }, httpPort: 80 }));
    await until(driver, id, 'running');
    let endpoint = await driver.endpoint(id);
    for (let i = 0; !endpoint && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      endpoint = await driver.endpoint(id);
    }
    expect(endpoint?.host).toBe('127.0.0.1');
    expect(endpoint?.port).not.toBe(80);
    const res = await fetch(`http://127.0.0.1:${endpoint!.port}/`);
    expect(await res.text()).toBe('hi there');
    await driver.kill(id);
    expect(await driver.endpoint(id)).toBeNull();
  });

  it.skipIf(!sandboxed || !existsSync(SLIRP))(
    'forwards the HTTP port from another free port when the one chosen was taken meanwhile',
    async () => {
      // The port chosen first is bound by someone else before the job's network binds it.
      const taken = createServer();
      await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
      const held = (taken.address() as AddressInfo).port;
      const other = new ProcessDriver({
        dataDir: join(dataDir, 'taken-port'),
        unsandboxedJobs: 'allow',
        freePort: () => Promise.resolve(held),
      });
      try {
        const server = `${JSON.stringify(process.execPath)} -e "require('http').createServer((q, r) => r.end('mine')).listen(process.env.PORT ?? 80)"`;
        const id = await run(spec(server, { httpPort: 80 }), other);
        await until(other, id, 'running');
        const endpoint = await vi.waitFor(
          async () => {
            const e = await other.endpoint(id);
            expect(e).not.toBeNull();
            return e!;
          },
          { timeout: 10_000, interval: 50 },
        );
        expect(endpoint.port).not.toBe(held);
        expect(await (await fetch(`http://127.0.0.1:${endpoint.port}/`)).text()).toBe('mine');
        await other.kill(id);
      } finally {
        await other.close();
        taken.close();
      }
    },
  );

  it.skipIf(!sandboxed)(
    'mounts volumes at their paths, read-only where asked (needs /usr/bin/bwrap)',
    async () => {
      const rw = join(dataDir, 'vol-rw');
      const ro = join(dataDir, 'vol-ro');
      mkdirSync(rw);
      mkdirSync(ro);
      writeFileSync(join(ro, 'input.txt'), 'data\n');
      const id = await run(
        spec(
          'cat /var/storage/ro/input.txt; echo out > /mnt/results/out.txt; echo x > /var/storage/ro/x || echo refused; echo x > /etc/x || echo host refused; pwd',
          {
            workingDir: '/mnt/results',
            mounts: [
              { hostPath: ro, dstPath: '/var/storage/ro', readOnly: true },
              { hostPath: rw, dstPath: '/mnt/results', readOnly: false },
            ],
          },
        ),
      );
      expect(await until(driver, id, 'exited')).toMatchObject({ exitCode: 0 });
      const log = await logOf(driver, id);
      expect(log).toMatch(/^data\n/);
      expect(log).toContain('Read-only file system\nrefused\n');
      expect(log).toContain('host refused\n/mnt/results\n');
      expect(readFileSync(join(rw, 'out.txt'), 'utf8')).toBe('out\n');
      expect(existsSync(join(ro, 'x'))).toBe(false);
    },
  );

  it.skipIf(!sandboxed)('hides the server data directory (needs /usr/bin/bwrap)', async () => {
    // Outside /tmp, which jobs do not share anyway.
    const secretDir = mkdtempSync('/var/tmp/orrery-process-');
    writeFileSync(join(secretDir, 'secrets.key'), 'k');
    const other = new ProcessDriver({ dataDir: secretDir, unsandboxedJobs: 'allow' });
    try {
      const id = await run(spec(`ls -A ${secretDir} || echo absent`), other);
      await until(other, id, 'exited');
      expect(await logOf(other, id)).toMatch(/No such file or directory\nabsent\n$/);
    } finally {
      await other.close();
      rmSync(secretDir, { recursive: true, force: true });
    }
  });

  it('serves logs with since, timestamps and follow, also after the job is removed', async () => {
    const id = await run(spec('echo one; sleep 1.2; echo two; sleep 0.3; printf three'));
    const follow = text(await driver.logs(id, { follow: true, timestamps: true }));
    await until(driver, id, 'exited');
    const lines = (await follow).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => l.slice(25))).toEqual(['one', 'two', 'three']);
    const times = lines.map((l) => new Date(l.slice(0, 24)).getTime());
    expect(times[1] - times[0]).toBeGreaterThan(900);
    const since = new Date(times[1]);
    expect(await text(await driver.logs(id, { follow: false, timestamps: false, since }))).toBe(
      'two\nthree',
    );
    await driver.remove(id);
    expect(await driver.observe(id)).toEqual({ state: 'missing' });
    expect(await driver.list()).not.toContain(id);
    expect(await logOf(driver, id)).toBe('one\ntwo\nthree');
  });

  it('kills the whole process tree, SIGKILL after the grace period for a stubborn one', async () => {
    // Everything ignores SIGTERM: the shell and, inheriting that, both sleeps.
    const id = await run(spec('trap "" TERM; sleep 300 & sleep 300 & wait'));
    await until(driver, id, 'running');
    const wrapper = Number(readFileSync(join(dataDir, 'jobs', id, 'wrapper.pid'), 'utf8'));
    let pids: number[] = [];
    for (let i = 0; pids.filter((p) => p).length < 3 && i < 100; i++) {
      pids = (await tree(wrapper)).map((p) => p.pid);
      await new Promise((r) => setTimeout(r, 20));
    }
    const t0 = Date.now();
    await driver.kill(id);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1900);
    const alive = new Set((await allProcesses()).map((p) => p.pid));
    expect(pids.filter((p) => alive.has(p))).toEqual([]);
    expect(await driver.observe(id)).toMatchObject({ state: 'exited', exitCode: 137 });
  });

  it('kills a job the moment it runs with SIGTERM, reporting the command exit code', async () => {
    // A grace far beyond the test's timeout: a kill that waited it out instead of returning once
    // the job had ended would fail the test by timing out.
    const patient = new ProcessDriver({
      dataDir,
      killGraceMs: 3_600_000,
      unsandboxedJobs: 'allow',
    });
    try {
      const id = await run(spec('trap "echo bye; exit 5" TERM; sleep 300 & wait'), patient);
      await until(patient, id, 'running');
      await patient.kill(id);
      expect(await patient.observe(id)).toMatchObject({ state: 'exited', exitCode: 5 });
      expect(await logOf(patient, id)).toBe('bye\n');
    } finally {
      await patient.close();
    }
  });

  it('reports a job that outlived its server, then its exit code', async () => {
    const id = await run(spec('sleep 1; exit 4'));
    await until(driver, id, 'running');
    const later = new ProcessDriver({ dataDir, unsandboxedJobs: 'allow' });
    try {
      expect(await later.list()).toContain(id);
      expect((await later.observe(id)).state).toBe('running');
      const changed = new Promise((r) => later.onChange((c) => c === id && r(c)));
      expect(await until(later, id, 'exited')).toMatchObject({ exitCode: 4 });
      await changed;
    } finally {
      await later.close();
    }
  });

  it('samples cpu and memory of the process tree', async () => {
    const id = await run(spec('while :; do :; done'));
    await until(driver, id, 'running');
    const abort = new AbortController();
    const samples = [];
    for await (const s of driver.stats(id, abort.signal)) {
      samples.push(s);
      if (samples.length === 2) abort.abort();
    }
    expect(samples).toHaveLength(2);
    expect(samples[1].memoryBytes).toBeGreaterThan(0);
    // A busy loop, on a machine shared with others: some of a core, never more than one.
    expect(samples[1].cpu).toBeGreaterThan(0.05);
    expect(samples[1].cpu).toBeLessThan(1.2);
    await driver.kill(id);
  });

  it('reports this machine as one pool, less what running jobs take', async () => {
    const [idle] = await driver.capacity();
    expect(idle).toMatchObject({ name: 'local' });
    expect(idle.cpu).toBeGreaterThan(0);
    expect(idle.memory).toBeGreaterThan(0);
    expect(idle.diskSize).toBeGreaterThan(0);
    const id = await run(spec('sleep 30'));
    await until(driver, id, 'running');
    const [busy] = await driver.capacity();
    expect(idle.availableCpu - busy.availableCpu).toBeCloseTo(0.5);
    expect(idle.availableMemory - busy.availableMemory).toBe(256 * 2 ** 20);
    await driver.kill(id);
  });

  it('execs a command beside the job, with its environment', async () => {
    const id = await run(spec('sleep 30', { env: { ANSWER: '42' }, workingDir: '/tmp' }));
    await until(driver, id, 'running');
    const session = await driver.exec!(id, {
      command: ['sh', '-c', 'echo $ANSWER; pwd; echo x > /etc/x || true'],
      tty: false,
      stdin: false,
    });
    const [out, code] = await Promise.all([text(session.stdout), session.exitCode]);
    expect(code).toBe(0);
    expect(out).toMatch(sandboxed ? /^42\n\/tmp\n$/ : /^42\n\S+\n$/);
    await driver.kill(id);
  });

  it('without bubblewrap refuses jobs, unless opted in (ORRERY_UNSANDBOXED_JOBS=allow)', async () => {
    const strict = new ProcessDriver({ dataDir, sandbox: false });
    try {
      expect(strict.refusal).toMatch(/^Jobs are refused on this installation/);
      await expect(strict.start(spec('true'))).rejects.toThrow(/ORRERY_UNSANDBOXED_JOBS=allow/);
    } finally {
      await strict.close();
    }
  });

  it('without bubblewrap, opted in (ORRERY_UNSANDBOXED_JOBS=allow), runs unsandboxed, says so, and refuses volumes', async () => {
    const bare = new ProcessDriver({ dataDir, sandbox: false, unsandboxedJobs: 'allow' });
    try {
      expect(bare.warning).toMatch(/not isolated/);
      expect(bare.notIsolated).toMatch(/not isolated/);
      const id = await run(spec('echo $HOME; id -u'), bare);
      await until(bare, id, 'exited');
      // A root server's job gets a home and a uid of its own; another's is the server's user's.
      const [home, uid] = (await logOf(bare, id)).trim().split('\n');
      if (process.getuid?.() === 0) {
        expect(home).toBe(`/run/orrery/homes/${uid}`);
        expect(Number(uid)).toBeGreaterThanOrEqual(20000);
      } else expect(home).toBe(join(dataDir, 'jobs', id, 'tmp'));
      // A command exec'd beside a running job is the job's uid too, never the server's root.
      const long = await run(spec('sleep 30'), bare);
      await until(bare, long, 'running');
      const session = await bare.exec!(long, { command: ['id', '-u'], tty: false, stdin: false });
      const [out] = await Promise.all([text(session.stdout), session.exitCode]);
      const runner = JSON.parse(readFileSync(join(dataDir, 'jobs', long, 'job.json'), 'utf8'));
      expect(out.trim()).toBe(String(runner.uid ?? process.getuid?.()));
      if (process.getuid?.() === 0) expect(out.trim()).not.toBe('0');
      await bare.kill(long);
      const mount = { hostPath: dataDir, dstPath: '/data', readOnly: true };
      await expect(bare.start(spec('true', { mounts: [mount] }))).rejects.toThrow(/bubblewrap/);
    } finally {
      await bare.close();
    }
  });
});
