// Slurm, a job of two workers (docs/jobs.md "Distributed jobs"): submit → both workers' commands
// running (each has written its first line), on the private two-node test cluster
// (scripts/slurm.mjs), through Orrery's slurm driver (the commands API; each worker in its
// sandbox with its own network and block of ports) and through a bare `sbatch -N 2` of the same
// command under `srun`. Each worker's command is the same: print a line, then worker 0 listens on
// MASTER_PORT for a second (the driver starts the other workers once it listens). The two paths take turns,
// BENCH_SLURM_RUNS rounds, each submit at a random moment of Slurm's one-second tick. The nodes get
// an address each on loopback for the run (a worker's network has its node's address).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSlurm } from '../slurm.mjs';
import { median, ms, row } from './report.mjs';

const runs = Number(process.env.BENCH_SLURM_RUNS ?? 10);
const dist = '../../packages/server/dist/runtime/slurm';
// Listens for a second, then ends: each round's jobs end by themselves before the next.
const LISTEN =
  "/usr/bin/python3 -c \"import os, socket, time; s = socket.create_server(('', int(os.environ.get('MASTER_PORT', '0')))); time.sleep(1)\"";
const COMMAND = `echo "up $SLURM_PROCID"; [ "\${RANK:-$SLURM_PROCID}" = 0 ] && exec ${LISTEN}; true`;

/** Resolves once each of `paths` holds a whole line. */
async function lines(paths) {
  const until = Date.now() + 120_000;
  const ready = (p) => existsSync(p) && readFileSync(p, 'utf8').includes('\n');
  while (!paths.every(ready)) {
    if (Date.now() > until) throw new Error(`${paths.join(', ')}: no output after 120 s`);
    await sleep(2);
  }
}

async function bareOnce(cluster, i) {
  const out = join(cluster.sharedDir, `bench-gang-sbatch-${i}`);
  const t0 = performance.now();
  const id = execFileSync(
    'sbatch',
    [
      '--parsable',
      '-N',
      '2',
      '--ntasks-per-node=1',
      '-o',
      '/dev/null',
      '--wrap',
      `srun --kill-on-bad-exit=1 -o ${out}.%t sh -c '${COMMAND.replaceAll("'", "'\\''")}'`,
    ],
    { env: { ...process.env, ...cluster.env }, encoding: 'utf8' },
  ).trim();
  await lines([`${out}.0`, `${out}.1`]);
  const t = performance.now() - t0;
  const left = () =>
    execFileSync('squeue', ['-h', '-j', id, '-t', 'PD,R,CG'], {
      env: { ...process.env, ...cluster.env },
      encoding: 'utf8',
    }).trim();
  while (left()) await sleep(100);
  return t;
}

async function orreryDriver(cluster) {
  const { SlurmDriver } = await import(`${dist}/driver.js`);
  const shared = mkdtempSync(join(cluster.sharedDir, 'bench-gang-'));
  chmodSync(shared, 0o755);
  const driver = await SlurmDriver.connect(
    { api: 'commands', conf: cluster.conf, user: cluster.user, sharedDir: shared },
    1000,
  );
  const once = async (i) => {
    const id = `bench-gang-${i}`;
    const t0 = performance.now();
    await driver.start({
      id,
      image: 'none',
      command: COMMAND,
      env: {},
      mounts: [],
      limits: { cpu: 2, memory: 300 * 2 ** 20, shm: false },
      tty: false,
      privileged: false,
      workers: 2,
    });
    await lines([0, 1].map((r) => join(shared, 'jobs', id, `w${r}`, 'out.log')));
    const t = performance.now() - t0;
    while (!['exited', 'missing'].includes((await driver.observe(id)).state)) await sleep(100);
    await driver.remove(id);
    return t;
  };
  return { once, close: () => driver.close() };
}

const range = (times) => `${ms(Math.min(...times))}–${ms(Math.max(...times))}`;

export async function benchSlurmGang() {
  const cluster = await startSlurm();
  if (!cluster) throw new Error('Slurm is not installed, or this is not root');
  const scontrol = (args) =>
    execFileSync('scontrol', args, { env: { ...process.env, ...cluster.env } });
  const net = `198.18.${1 + Math.floor(Math.random() * 254)}`;
  const addresses = cluster.nodes.map((_, i) => `${net}.${i + 1}`);
  let driver;
  try {
    for (const [i, node] of cluster.nodes.entries()) {
      execFileSync('ip', ['addr', 'replace', `${addresses[i]}/32`, 'dev', 'lo']);
      scontrol(['update', `nodename=${node}`, `nodeaddr=${addresses[i]}`]);
    }
    driver = await orreryDriver(cluster);
    const times = { sbatch: [], orrery: [] };
    const offTick = () => sleep(Math.random() * 1000);
    for (let i = 0; i < runs; i++) {
      await offTick();
      times.sbatch.push(await bareOnce(cluster, i));
      await offTick();
      times.orrery.push(await driver.once(i));
    }
    row(
      `Slurm gang of 2, submit → both workers running: sbatch -N 2 + srun (median of ${runs}, range)`,
      `${ms(median(times.sbatch))} (${range(times.sbatch)})`,
    );
    const paired = median(times.orrery.map((v, i) => v - times.sbatch[i]));
    row(
      'Slurm gang of 2, submit → both workers running: Orrery driver, commands (median, range; median difference to sbatch in a round)',
      `${ms(median(times.orrery))} (${range(times.orrery)}; ${paired < 0 ? '−' : '+'}${ms(Math.abs(paired))})`,
    );
  } finally {
    await driver?.close();
    await cluster.stop();
    for (const a of addresses) {
      try {
        execFileSync('ip', ['addr', 'del', `${a}/32`, 'dev', 'lo']);
      } catch {
        // Not added: the cluster did not start.
      }
    }
  }
}
