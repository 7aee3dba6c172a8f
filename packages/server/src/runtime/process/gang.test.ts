import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JobSpec } from '../driver.js';
import { ProcessDriver } from './driver.js';
import { SLIRP } from './network.js';
import { BWRAP } from './sandbox.js';
import { wrapperAlive } from './wrapper.js';
import { logOf, spec, until } from '../../test/process-jobs.js';
import {
  DDP_TRAINING,
  MPI_ALLREDUCE,
  MPI_INSTALLED,
  MPI_RUN,
  RANK_EXCHANGE,
  RUN_PROG,
  SENT_BEFORE_EXIT,
} from '../../test/gang-programs.js';

/** Each worker a real sandbox: bwrap, slirp4netns and a root server, as in isolation.test.ts. */
const missing = [
  existsSync(BWRAP) ? '' : 'bubblewrap',
  existsSync(SLIRP) ? '' : 'slirp4netns',
  existsSync('/usr/bin/python3') ? '' : '/usr/bin/python3',
  process.getuid?.() === 0 ? '' : 'a root server',
].filter(Boolean);
const why = missing.length ? ` (skipped: needs ${missing.join(', ')})` : '';
const dataDir = mkdtempSync('/var/tmp/orrery-gang-');
/** Debian's python3-torch (1.13, CPU): scripts/test.mjs installs it where it can. */
const torch =
  existsSync('/usr/bin/python3') &&
  spawnSync('/usr/bin/python3', ['-c', 'import torch'], { stdio: 'ignore' }).status === 0;
const mpi = MPI_INSTALLED;

describe.skipIf(missing.length > 0)(`Jobs of several workers on the process runtime${why}`, () => {
  let driver: ProcessDriver;
  const started: string[] = [];
  const run = async (s: JobSpec) => {
    started.push(s.id);
    await driver.start(s);
    return s.id;
  };
  const gang = (command: string, workers: number, extra: Partial<JobSpec> = {}) =>
    spec(command, { workers, ...extra });
  /** The wrappers of the gang's workers still alive. */
  const liveWorkers = async (id: string) => {
    const dirs = readdirSync(join(dataDir, 'jobs')).filter((d) => d.startsWith(`${id}.w`));
    const alive = await Promise.all(dirs.map((d) => wrapperAlive(join(dataDir, 'jobs', d))));
    return alive.filter(Boolean).length;
  };

  beforeAll(() => {
    driver = new ProcessDriver({ dataDir, killGraceMs: 1000 });
  });
  afterAll(async () => {
    for (const id of started) await driver.remove(id).catch(() => undefined);
    await driver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the workers, each in its own sandbox and uid, finding each other through their environment', async () => {
    expect(driver.gangs).toBe(true);
    const id = await run(gang(RUN_PROG, 3, { env: { PROG: RANK_EXCHANGE } }));
    expect(await driver.list()).toContain(id);
    const done = await until(driver, id, 'exited', 30_000);
    const log = await logOf(driver, id);
    expect(done, log).toMatchObject({ exitCode: 0 });
    const lines = log.trim().split('\n').sort();
    expect(lines).toEqual([
      expect.stringMatching(/^rank 0 of 3 heard ranks 1,2 uid \d+$/),
      expect.stringMatching(/^rank 1 of 3 heard rank 0 uid \d+$/),
      expect.stringMatching(/^rank 2 of 3 heard rank 0 uid \d+$/),
    ]);
    // One job to the rest of the server: its workers are not listed as jobs of their own.
    expect((await driver.list()).filter((j) => j.startsWith(id))).toEqual([id]);
    // Each worker's own log has its line alone, also once the gang is removed.
    await driver.remove(id);
    const own = async (worker: number) =>
      text(await driver.logs(id, { follow: false, timestamps: false, worker }));
    expect(await own(1)).toBe(`${lines[1]}\n`);
    expect(await own(0)).toBe(`${lines[0]}\n`);
    await expect(driver.logs(id, { follow: false, timestamps: false, worker: 3 })).rejects.toThrow(
      'has 3 workers',
    );
    const uids = new Set(lines.map((l) => l.split(' uid ')[1]));
    expect(uids.size).toBe(3);
  });

  it('starts every worker even when the first one ends at once', async () => {
    // Rank 0's network namespace is the one the others join: it must outlive a quick command.
    const id = await run(gang('echo "worker $RANK"', 3));
    const done = await until(driver, id, 'exited', 30_000);
    const log = await logOf(driver, id);
    expect(done, log).toMatchObject({ exitCode: 0 });
    expect(log.trim().split('\n').sort()).toEqual(['worker 0', 'worker 1', 'worker 2']);
  });

  it('delivers what a worker sent before it exited to a peer that reads after', async () => {
    const id = await run(gang(RUN_PROG, 2, { env: { PROG: SENT_BEFORE_EXIT } }));
    const done = await until(driver, id, 'exited', 60_000);
    const log = await logOf(driver, id);
    expect(done, log).toMatchObject({ exitCode: 0 });
    const [, got, sent] = /^rank 1 got (\d+) of (\d+) bytes$/m.exec(log) ?? [];
    expect(Number(sent), log).toBeGreaterThan(0);
    expect(got).toBe(sent);
  });

  it("keeps the gang's network to itself: another job does not reach its rendezvous port", async () => {
    const listener = `/usr/bin/python3 -c "
import os, socket
if os.environ['RANK'] == '0':
    s = socket.create_server(('0.0.0.0', int(os.environ['MASTER_PORT'])))
    print('listening', os.environ['MASTER_PORT'], flush=True)
    s.accept()
"`;
    const id = await run(gang(listener, 2));
    await until(driver, id, 'running', 30_000);
    const port = await (async () => {
      for (;;) {
        const m = /listening (\d+)/.exec(await logOf(driver, id));
        if (m) return m[1];
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const probe = `/usr/bin/python3 -c "
import socket
try:
    socket.create_connection(('127.0.0.1', ${port}), timeout=3)
    print('connected')
except OSError as e:
    print(type(e).__name__)
"`;
    const other = await run(spec(probe));
    await until(driver, other, 'exited', 30_000);
    expect(await logOf(driver, other)).toBe('ConnectionRefusedError\n');
    await driver.kill(id);
  });

  it('stops the other workers when one fails, and fails with its exit code', async () => {
    const id = await run(gang('if [ "$RANK" = 1 ]; then exit 3; fi; exec sleep 600', 2));
    const done = await until(driver, id, 'exited', 30_000);
    expect(done).toMatchObject({
      exitCode: 3,
      message: 'Worker 1 of 2 exited with code 3; the other workers were stopped',
    });
    // Each worker's command has ended (its exit is written); its wrapper, which wrote it, ends
    // a moment later.
    await expect.poll(() => liveWorkers(id), { timeout: 10_000 }).toBe(0);
  });

  it('is running once every worker runs, and a kill stops them all', async () => {
    const id = await run(gang('exec sleep 600', 2));
    await until(driver, id, 'running', 30_000);
    expect(await liveWorkers(id)).toBe(2);
    await driver.kill(id);
    expect(await driver.observe(id)).toMatchObject({ state: 'exited' });
    expect(await liveWorkers(id)).toBe(0);
    // Removed, it is gone whole; the logs stay readable.
    await driver.remove(id);
    expect(await driver.observe(id)).toEqual({ state: 'missing' });
    expect(await driver.list()).not.toContain(id);
    expect(await logOf(driver, id)).toBe('');
  });

  it("serves the gang's launch agent again after a restart of the server", async () => {
    const id = await run(gang('exec sleep 600', 2));
    await until(driver, id, 'running', 30_000);
    const inWorker0 = async (d: ProcessDriver, command: string) => {
      const session = await d.exec(id, {
        command: ['/bin/sh', '-c', command],
        tty: false,
        stdin: false,
      });
      const [out, code] = await Promise.all([text(session.stdout), session.exitCode]);
      return { out, code };
    };
    const ask = 'orrery-worker-exec 1 \'echo "$RANK $(hostname)"\'';
    expect(await inWorker0(driver, ask)).toEqual({ out: `1 ${id}.w1\n`, code: 0 });
    // Its input goes to the command in worker 1, and the command's exit code comes back.
    const relayed = 'echo piped | orrery-worker-exec 1 \'cat; exit 7\'; echo "exit $?"';
    expect(await inWorker0(driver, relayed)).toEqual({ out: 'piped\nexit 7\n', code: 0 });
    // The jobs outlive the server; the next one finds the gang and serves its agent.
    await driver.close();
    driver = new ProcessDriver({ dataDir, killGraceMs: 1000 });
    await vi.waitFor(
      async () => expect(await inWorker0(driver, ask)).toEqual({ out: `1 ${id}.w1\n`, code: 0 }),
      {
        timeout: 10_000,
        interval: 100,
      },
    );
    await driver.kill(id);
  });

  it('without the sandbox, runs the workers on the host network with a free rendezvous port', async () => {
    const bareDir = mkdtempSync('/var/tmp/orrery-gang-bare-');
    const bare = new ProcessDriver({ dataDir: bareDir, sandbox: false, unsandboxedJobs: 'allow' });
    try {
      expect(bare.gangs).toBe(true);
      const job = gang(RUN_PROG, 2, { env: { PROG: RANK_EXCHANGE } });
      await bare.start(job);
      const done = await until(bare, job.id, 'exited', 30_000);
      const log = await logOf(bare, job.id);
      expect(done, log).toMatchObject({ exitCode: 0 });
      expect(log.trim().split('\n').sort()).toEqual([
        expect.stringMatching(/^rank 0 of 2 heard ranks 1 uid \d+$/),
        expect.stringMatching(/^rank 1 of 2 heard rank 0 uid \d+$/),
      ]);
      await bare.remove(job.id);
      if (mpi) {
        // MPI too: the workers share the host's name, the agent tells them apart.
        const ranks = gang(MPI_RUN, 2, { env: { PROG: MPI_ALLREDUCE } });
        await bare.start(ranks);
        const ended = await until(bare, ranks.id, 'exited', 60_000);
        const out = await logOf(bare, ranks.id);
        expect(ended, out).toMatchObject({ exitCode: 0 });
        expect(
          [...out.matchAll(/^mpi rank (\d) of 2 on \S+ sum 1$/gm)].map((m) => m[1]).sort(),
          out,
        ).toEqual(['0', '1']);
        await bare.remove(ranks.id);
      }
    } finally {
      await bare.close();
      rmSync(bareDir, { recursive: true, force: true });
    }
  });

  it.skipIf(!torch)(
    `trains a model with PyTorch DDP (gloo) on two workers${torch ? '' : ' (skipped: python3-torch is not installed)'}`,
    async () => {
      const id = await run(
        gang(RUN_PROG, 2, {
          env: { PROG: DDP_TRAINING },
          limits: { cpu: 1, memory: 2 ** 30, shm: false },
        }),
      );
      const done = await until(driver, id, 'exited', 120_000);
      const log = await logOf(driver, id);
      expect(done, log).toMatchObject({ exitCode: 0 });
      const ranks = [
        ...log.matchAll(/^rank (\d) of 2 params ([-\d. ]+) loss ([\d.]+) ([\d.]+)$/gm),
      ];
      expect(ranks.map((m) => m[1]).sort(), log).toEqual(['0', '1']);
      // The gradients were all-reduced: both ranks end with the same parameters.
      expect(ranks[0][2]).toBe(ranks[1][2]);
      // And the model learned: the loss fell to a tenth at least.
      for (const m of ranks) expect(Number(m[4])).toBeLessThan(Number(m[3]) / 10);
    },
    180_000,
  );

  it.skipIf(!mpi)(
    `runs an MPI all-reduce across the workers with mpirun, through the job's launch agent${mpi ? '' : ' (skipped: openmpi-bin or python3-mpi4py is not installed)'}`,
    async () => {
      // Before mpirun, worker 0 asks the agent for hosts that are not the job's workers.
      const refusals = [
        'cat "$ORRERY_HOSTFILE"',
        'for h in localhost 127.0.0.1 "$(hostname)-x" 2; do orrery-worker-exec "$h" true; echo "refused $h $?"; done',
        'echo "rank 1 says $(orrery-worker-exec 1 \'echo $RANK $(hostname)\')"',
      ].join('; ');
      const command = `if [ "$RANK" = 0 ]; then ${refusals}; fi; ${MPI_RUN}`;
      const id = await run(gang(command, 2, { env: { PROG: MPI_ALLREDUCE } }));
      const done = await until(driver, id, 'exited', 120_000);
      const log = await logOf(driver, id);
      expect(done, log).toMatchObject({ exitCode: 0 });
      // Each rank in its own worker, both with the sum of the ranks.
      const ranks = [...log.matchAll(/^mpi rank (\d) of 2 on (\S+) sum (\d+)$/gm)];
      expect(ranks.map((m) => [m[1], m[2], m[3]]).sort(), log).toEqual([
        ['0', `${id}.w0`, '1'],
        ['1', `${id}.w1`, '1'],
      ]);
      expect(log).toContain(`${id}.w0 slots=1\n${id}.w1 slots=1\n`);
      expect(log).toContain(`rank 1 says 1 ${id}.w1\n`);
      for (const host of ['localhost', '127.0.0.1', `${id}.w0-x`, '2']) {
        expect(log).toContain(
          `orrery-worker-exec: ${host} is not a worker of this job; its workers are ${id}.w0, ${id}.w1\n`,
        );
        expect(log).toContain(`refused ${host} 255\n`);
      }
      // The agent's directory goes with the gang.
      await driver.remove(id);
      expect(existsSync(`/run/orrery/gang/${id}`)).toBe(false);
    },
    180_000,
  );
});
