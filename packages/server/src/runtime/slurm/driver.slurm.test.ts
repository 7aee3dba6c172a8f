import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JobSpec, ObservedState } from '../driver.js';
import { SlurmDriver } from './driver.js';
import type { SlurmOptions } from './options.js';
import {
  commandSpec,
  setupBlock,
  slurmApis,
  testCluster,
  type TestCluster,
} from '../../test/slurm-cluster.js';

/**
 * The slurm driver on a real Slurm cluster (scripts/slurm.mjs in `npm test`, or any loopback
 * cluster): ORRERY_TEST_SLURM_CONF for the commands, ORRERY_TEST_SLURM_REST and
 * ORRERY_TEST_SLURM_JWT_KEY for slurmrestd. Jobs run as ORRERY_TEST_SLURM_USER (default
 * orrery-slurm); the nodes are this machine, so a temporary directory is the shared one.
 */
const { conf, restUrl: rest, jwtKeyPath: jwtKey, user } = testCluster ?? ({} as TestCluster);
const apis = slurmApis;

const MB = 2 ** 20;
let n = 0;
function spec(command: string, extra: Partial<JobSpec> = {}): JobSpec {
  const limits = { cpu: 1, memory: 200 * MB, shm: false };
  return commandSpec(`t${process.pid}-${Date.now().toString(36)}-${n++}`, command, {
    limits,
    ...extra,
  });
}

async function until(
  driver: SlurmDriver,
  id: string,
  want: (s: ObservedState) => boolean,
  ms = 30_000,
): Promise<ObservedState> {
  const deadline = Date.now() + ms;
  for (;;) {
    const s = await driver.observe(id);
    if (want(s)) return s;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${JSON.stringify(s)}`);
    await sleep(200);
  }
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const exited = (s: ObservedState) => s.state === 'exited';
const running = (s: ObservedState) => s.state === 'running';

async function logText(driver: SlurmDriver, id: string): Promise<string> {
  let text = '';
  for await (const c of await driver.logs(id, { follow: false, timestamps: false })) text += c;
  return text;
}

/**
 * Another address of the node, added to its loopback interface for the test: pasta gives the job
 * a copy of the node's primary address, so a job trying that one reaches itself; an address like
 * this one (or another machine of the node's network) is what the node rule keeps it from.
 */
const NODE_ALIAS = '198.51.100.7';

/** docs/operations.md's node rule, as written, for this node's address and the service user. */
function applyNodeRule(address: string) {
  execFileSync('sh', ['-ec', setupBlock('the node rule', { user, node: address })]);
}

/** A server of the service user on the node's address (as pasta's forwards are), asked by root. */
async function answerAsServiceUser(address: string): Promise<string> {
  const server = spawn('runuser', [
    '-u',
    user,
    '--',
    process.execPath,
    '-e',
    // It answers once, or gives up after 20 s: runuser need not pass a kill on.
    `setTimeout(()=>process.exit(1),20000);require('http').createServer((q,r)=>r.end('forwarded',()=>process.exit())).listen(0,'${address}',function(){console.log(this.address().port)})`,
  ]);
  try {
    const [line] = (await once(server.stdout, 'data')) as [Buffer];
    const r = await fetch(`http://${address}:${Number(String(line))}/`, {
      signal: AbortSignal.timeout(5000),
    });
    return await r.text();
  } finally {
    server.kill();
  }
}

describe.skipIf(apis.length === 0).each(apis)('slurm driver ($api)', ({ api }) => {
  let shared: string;
  let driver: SlurmDriver;

  beforeAll(async () => {
    shared = mkdtempSync(join(process.env.ORRERY_TEST_SLURM_SHARED ?? tmpdir(), 'driver-'));
    chmodSync(shared, 0o755);
    const options: SlurmOptions = {
      api,
      conf,
      restUrl: rest,
      jwtKeyFile: jwtKey,
      user,
      sharedDir: shared,
    };
    driver = await SlurmDriver.connect(options, 3000);
  });
  afterAll(async () => {
    await driver?.close();
    rmSync(shared, { recursive: true, force: true });
  });

  it('runs a command with its env as the service user, exit codes 0 and 3, logs after exit', async () => {
    const ok = spec('echo "hello $GREETING from $(id -un)"', { env: { GREETING: "it's me" } });
    const bad = spec('echo failing; exit 3');
    await Promise.all([driver.start(ok), driver.start(bad)]);
    const [a, b] = await Promise.all([until(driver, ok.id, exited), until(driver, bad.id, exited)]);
    expect(a).toMatchObject({ state: 'exited', exitCode: 0 });
    expect(b).toMatchObject({ state: 'exited', exitCode: 3 });
    expect(await logText(driver, ok.id)).toContain(`hello it's me from ${user}`);
    expect(await driver.list()).toEqual(expect.arrayContaining([ok.id, bad.id]));
    await driver.remove(ok.id);
    expect(await logText(driver, ok.id)).toContain('hello');
    expect(await driver.observe(ok.id)).toEqual({ state: 'missing' });
  });

  it('kills with SIGTERM reaching a child process, then cancels', async () => {
    const job = spec(
      `(trap 'echo child got TERM; exit 0' TERM; while :; do sleep 0.1; done) & echo started; wait`,
    );
    await driver.start(job);
    await until(driver, job.id, running);
    const deadline = Date.now() + 10_000;
    while (!(await logText(driver, job.id)).includes('started') && Date.now() < deadline) {
      await sleep(100);
    }
    await driver.kill(job.id);
    const s = await until(driver, job.id, exited);
    expect(s.state).toBe('exited');
    await until(driver, job.id, () => true);
    const deadlineLog = Date.now() + 5000;
    while (
      !(await logText(driver, job.id)).includes('child got TERM') &&
      Date.now() < deadlineLog
    ) {
      await sleep(100);
    }
    expect(await logText(driver, job.id)).toContain('child got TERM');
  });

  it('reports a job killed for its memory as OOMKilled with the limit', async () => {
    const job = spec(
      `python3 -c "a=[]
while True: a.append(bytearray(10 << 20))"`,
      {
        limits: { cpu: 1, memory: 100 * MB, shm: false },
      },
    );
    await driver.start(job);
    const s = await until(driver, job.id, exited, 60_000);
    expect(s).toMatchObject({ state: 'exited', exitCode: 137, reason: 'OOMKilled' });
    expect((s as { message?: string }).message).toMatch(/memory limit of 104.86 MB/);
  });

  it('gives each job a network of its own: two on one port, each served through its node', async () => {
    const port = 8000;
    const jobs = ['first', 'second'].map((page) =>
      spec(`echo ${page} > /tmp/index.html; cd /tmp; exec python3 -m http.server ${port}`, {
        httpPort: port,
      }),
    );
    await Promise.all(jobs.map((j) => driver.start(j)));
    const pages = await Promise.all(
      jobs.map(async (j) => {
        await until(driver, j.id, running);
        let at: { host: string; port: number } | null = null;
        for (let i = 0; i < 100 && !at; i++) {
          at = await driver.endpoint(j.id);
          if (!at) await sleep(200);
        }
        expect(at).not.toBeNull();
        expect(at!.port).not.toBe(port);
        return (await fetch(`http://${at!.host}:${at!.port}/index.html`)).text();
      }),
    );
    expect(pages).toEqual(['first\n', 'second\n']);
    await Promise.all(jobs.map((j) => driver.kill(j.id)));
    await Promise.all(jobs.map((j) => until(driver, j.id, exited)));
  });

  it("keeps the job off the node's loopback services", async () => {
    const host = createServer((_q, r) => r.end('host secret'));
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    const hostPort = (host.address() as AddressInfo).port;
    try {
      const job = spec(
        `python3 -c "import urllib.request as u; print(u.urlopen('http://127.0.0.1:${hostPort}/', timeout=3).read())" || echo refused`,
      );
      await driver.start(job);
      expect(await until(driver, job.id, exited)).toMatchObject({ exitCode: 0 });
      const log = await logText(driver, job.id);
      expect(log).toContain('refused');
      expect(log).not.toContain('host secret');
    } finally {
      host.close();
    }
  });

  it("keeps the job off the node's addresses under the node rule of docs/operations.md", async () => {
    const address = NODE_ALIAS;
    execFileSync('ip', ['addr', 'replace', `${address}/32`, 'dev', 'lo']);
    const host = createServer((_q, r) => r.end('host secret'));
    await new Promise<void>((r) => host.listen(0, address, r));
    const hostPort = (host.address() as AddressInfo).port;
    const fetchHost = async () => {
      const job = spec(
        `python3 -c "import urllib.request as u; print(u.urlopen('http://${address}:${hostPort}/', timeout=3).read())" || echo refused`,
      );
      await driver.start(job);
      await until(driver, job.id, exited);
      return logText(driver, job.id);
    };
    try {
      // Without the rule pasta takes the job to the node's address: what the rule is there for.
      expect(await fetchHost()).toContain('host secret');
      applyNodeRule(address);
      const log = await fetchHost();
      expect(log).toContain('refused');
      expect(log).not.toContain('host secret');
      // The service user's listening sockets (pasta's forwards) still answer the server.
      expect(await answerAsServiceUser(address)).toBe('forwarded');
    } finally {
      execFileSync('nft', ['delete', 'table', 'inet', 'orrery-slurm'], { stdio: 'ignore' });
      host.close();
      execFileSync('ip', ['addr', 'del', `${address}/32`, 'dev', 'lo']);
    }
  });

  it('gives a GPU job its GRES: CUDA_VISIBLE_DEVICES', async () => {
    const job = spec('echo "gpus=$CUDA_VISIBLE_DEVICES"', {
      limits: { cpu: 1, memory: 100 * MB, shm: false, gpu: { vendor: 'nvidia', count: 1 } },
      // The preset's pool `gpu` is the partition of the GPU node.
      placement: { pools: ['gpu'], preemptible: false, restartPolicy: 'never' },
    });
    await driver.start(job);
    expect(await until(driver, job.id, exited)).toMatchObject({ exitCode: 0 });
    expect(await logText(driver, job.id)).toMatch(/gpus=\d/);
  });

  it('reports pools from the partitions, with GPUs from GRES, and live stats from the job cgroups', async () => {
    const pools = await driver.capacity();
    expect(pools.map((p) => p.name)).toContain('gpu');
    const gpu = pools.find((p) => p.name === 'gpu')!;
    expect(gpu.gpu).toMatchObject({ vendor: 'nvidia', count: 2, model: 'fake' });
    expect(gpu.cpu).toBeGreaterThan(0);
    const job = spec('python3 -c "a = bytearray(50 << 20)\nwhile True: pass"');
    await driver.start(job);
    await until(driver, job.id, running);
    const abort = new AbortController();
    const samples = [];
    for await (const sample of driver.stats(job.id, abort.signal)) {
      samples.push(sample);
      if (samples.length === 2) abort.abort();
    }
    expect(samples).toHaveLength(2);
    expect(samples[1].cpu).toBeGreaterThan(0.05);
    expect(samples[1].memoryBytes).toBeGreaterThan(40 * MB);
    await driver.kill(job.id);
  });

  it('fails a job lost with its node, saying so', async () => {
    if (!conf) return;
    const job = spec('sleep 60');
    await driver.start(job);
    await until(driver, job.id, running);
    const scontrol = (...args: string[]) =>
      execFileSync('scontrol', args, { env: { ...process.env, SLURM_CONF: conf }, stdio: 'pipe' });
    const host = String(
      execFileSync('squeue', ['-h', '-n', `orrery-${job.id}`, '-o', '%B'], {
        env: { ...process.env, SLURM_CONF: conf },
      }),
    ).trim();
    scontrol('update', `nodename=${host}`, 'state=down', 'reason=orrery-test');
    try {
      const s = await until(driver, job.id, exited);
      // Slurm says NODE_FAIL; a job slurmrestd let Slurm requeue is cancelled and said lost too.
      expect(s).toMatchObject({
        reason: 'NodeFail',
        message: expect.stringMatching(/^The job was lost with its node/),
      });
      expect(await driver.observe(job.id)).toMatchObject({ reason: 'NodeFail' });
    } finally {
      try {
        scontrol('update', `nodename=${host}`, 'state=resume');
      } catch {
        // Back already.
      }
      // The next tests need the node: idle again before they start.
      for (
        let i = 0;
        i < 100 && /State=\S*DOWN/.test(String(scontrol('show', 'node', host)));
        i++
      ) {
        await sleep(100);
      }
    }
  });

  it('keeps a running job through a slurmctld restart', async () => {
    if (!conf) return;
    // It runs until the test says (its /tmp is the job directory's tmp): it cannot end unseen
    // while the controller is down, however long slurmctld takes to stop.
    const job = spec('until [ -e /tmp/go ]; do sleep 0.1; done; echo done');
    await driver.start(job);
    await until(driver, job.id, running);
    const pidFile = /^SlurmctldPidFile=(\S+)/m.exec(readFileSync(conf, 'utf8'))?.[1];
    expect(pidFile).toBeTruthy();
    const pid = Number(readFileSync(pidFile!, 'utf8'));
    process.kill(pid, 'SIGTERM');
    try {
      // Gone once it has saved its state; a new one started before would find the port taken.
      for (let i = 0; i < 100 && alive(pid); i++) await sleep(100);
      // While the controller is down, the job keeps its last known state.
      expect(await driver.observe(job.id)).toMatchObject({ state: 'running' });
    } finally {
      // Back whatever happened, its nodes registered again: the next tests submit at once.
      execFileSync('/usr/sbin/slurmctld', ['-f', conf]);
      const env = { ...process.env, SLURM_CONF: conf };
      await vi.waitFor(
        () =>
          expect(String(execFileSync('scontrol', ['show', 'node'], { env }))).not.toMatch(
            /State=\S*(DOWN|NOT_RESPONDING|UNKNOWN)/,
          ),
        { timeout: 60_000, interval: 200 },
      );
    }
    writeFileSync(join(shared, 'jobs', job.id, 'tmp', 'go'), '');
    expect(await until(driver, job.id, exited, 60_000)).toMatchObject({ exitCode: 0 });
    expect(await logText(driver, job.id)).toContain('done');
  }, 90_000);
});
