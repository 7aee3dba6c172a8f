// Slurm (issue 16): submit → the script's first line on the private two-node test cluster
// (scripts/slurm.mjs), through `sbatch` alone and through Orrery's slurm driver (slurmrestd with a
// JWT, and the commands), the job in the process runtime's sandbox as in production. Median of
// BENCH_SLURM_RUNS (10). Slurm's own floor is its one-second scheduler tick.
import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSlurm } from '../slurm.mjs';
import { median, ms, row } from './report.mjs';

const runs = Number(process.env.BENCH_SLURM_RUNS ?? 10);
const dist = '../../packages/server/dist/runtime/slurm';

async function firstLine(path) {
  const until = Date.now() + 60_000;
  while (!(existsSync(path) && readFileSync(path, 'utf8').includes('\n'))) {
    if (Date.now() > until) throw new Error(`${path}: no output after 60 s`);
    await sleep(2);
  }
}

async function sbatchRuns(cluster) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const out = join(cluster.sharedDir, `bench-sbatch-${i}.out`);
    const t0 = performance.now();
    const r = spawnSync('sbatch', ['--parsable', '-o', out, '--wrap', 'echo first'], {
      env: { ...process.env, ...cluster.env },
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`sbatch: ${r.stderr}`);
    await firstLine(out);
    times.push(performance.now() - t0);
  }
  return times;
}

async function driverRuns(cluster, api) {
  const { SlurmDriver } = await import(`${dist}/driver.js`);
  const shared = mkdtempSync(join(cluster.sharedDir, `bench-${api}-`));
  chmodSync(shared, 0o755);
  const driver = await SlurmDriver.connect(
    {
      api,
      conf: cluster.conf,
      restUrl: cluster.restUrl,
      jwtKeyFile: cluster.jwtKeyPath,
      user: cluster.user,
      sharedDir: shared,
    },
    1000,
  );
  const times = [];
  try {
    for (let i = 0; i < runs; i++) {
      const id = `bench-${api}-${i}`;
      const t0 = performance.now();
      await driver.start({
        id,
        image: 'none',
        command: 'echo first',
        env: {},
        mounts: [],
        limits: { cpu: 1, memory: 200 * 2 ** 20, shm: false },
        tty: false,
        privileged: false,
      });
      const logs = await driver.logs(id, { follow: true, timestamps: false });
      for await (const chunk of logs) if (String(chunk).includes('\n')) break;
      times.push(performance.now() - t0);
      logs.destroy();
      await driver.remove(id);
    }
  } finally {
    await driver.close();
  }
  return times;
}

export async function benchSlurm() {
  const cluster = await startSlurm();
  if (!cluster) throw new Error('Slurm is not installed, or this is not root');
  try {
    row('Slurm test cluster: cold start to both nodes idle', ms(cluster.startMs));
    const base = median(await sbatchRuns(cluster));
    row(`Slurm submit → first line: sbatch alone (median of ${runs})`, ms(base));
    for (const api of ['rest', 'commands']) {
      const t = median(await driverRuns(cluster, api));
      row(
        `Slurm submit → first line: Orrery driver, ${api} (median of ${runs})`,
        // Slurm's one-second tick can start the driver's job sooner than sbatch's: a signed delta.
        `${ms(t)} (${t < base ? '−' : '+'}${ms(Math.abs(t - base))})`,
      );
    }
  } finally {
    await cluster.stop();
  }
}
