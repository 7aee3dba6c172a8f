// Slurm: submit → the script's first line on the private two-node test cluster (scripts/slurm.mjs),
// through `sbatch` alone and through Orrery's slurm driver (slurmrestd with a JWT, and the
// commands), the job in the process runtime's sandbox as in production. The three paths take turns
// (one of each per round, BENCH_SLURM_RUNS rounds, 10 by default, each submit at a random moment
// of Slurm's tick), so that the machine's load and the tick weigh on each alike; each path's median and range, and the median of Orrery's difference to
// `sbatch` within a round. Slurm's own floor is its one-second scheduler tick.
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

async function sbatchOnce(cluster, i) {
  const out = join(cluster.sharedDir, `bench-sbatch-${i}.out`);
  const t0 = performance.now();
  const r = spawnSync('sbatch', ['--parsable', '-o', out, '--wrap', 'echo first'], {
    env: { ...process.env, ...cluster.env },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`sbatch: ${r.stderr}`);
  await firstLine(out);
  return performance.now() - t0;
}

async function driverFor(cluster, api) {
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
  const once = async (i) => {
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
    const t = performance.now() - t0;
    logs.destroy();
    await driver.remove(id);
    return t;
  };
  return { once, close: () => driver.close() };
}

const range = (times) => `${ms(Math.min(...times))}–${ms(Math.max(...times))}`;
const signed = (d) => `${d < 0 ? '−' : '+'}${ms(Math.abs(d))}`;

export async function benchSlurm() {
  const cluster = await startSlurm();
  if (!cluster) throw new Error('Slurm is not installed, or this is not root');
  const apis = ['rest', 'commands'];
  const drivers = {};
  try {
    row('Slurm test cluster: cold start to both nodes idle', ms(cluster.startMs));
    for (const api of apis) drivers[api] = await driverFor(cluster, api);
    const times = { sbatch: [], rest: [], commands: [] };
    // Each submit at a random moment of Slurm's one-second tick: in a fixed order, each path would
    // land at its own phase of the tick, and the phase would decide the comparison.
    const offTick = () => sleep(Math.random() * 1000);
    for (let i = 0; i < runs; i++) {
      await offTick();
      times.sbatch.push(await sbatchOnce(cluster, i));
      for (const api of apis) {
        await offTick();
        times[api].push(await drivers[api].once(i));
      }
    }
    const base = median(times.sbatch);
    row(
      `Slurm submit → first line: sbatch alone (median of ${runs}, range)`,
      `${ms(base)} (${range(times.sbatch)})`,
    );
    for (const api of apis) {
      const t = times[api];
      // Slurm's one-second tick can start the driver's job sooner than sbatch's: signed.
      const paired = median(t.map((v, i) => v - times.sbatch[i]));
      row(
        `Slurm submit → first line: Orrery driver, ${api} (median, range; median difference to sbatch in a round)`,
        `${ms(median(t))} (${range(t)}; ${signed(paired)})`,
      );
    }
  } finally {
    for (const d of Object.values(drivers)) await d.close();
    await cluster.stop();
  }
}
