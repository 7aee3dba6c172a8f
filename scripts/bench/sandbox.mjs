// The process runtime's sandbox floor: from the driver's start() to the command
// `true` having exited inside a full sandbox (job uid, allow-listed root, namespaces, slirp4netns,
// cgroups), next to a bare spawn of the same command. Median of BENCH_SANDBOX_RUNS (20).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { median, ms, pct, row } from './report.mjs';

const runs = Number(process.env.BENCH_SANDBOX_RUNS ?? 20);
const dist = '../../packages/server/dist/runtime';

/**
 * ms from start() until `command` has run inside the sandbox: `exit` written (command `true`), or
 * the first byte in the job's log (`until: 'output'`). The directory is outside /tmp, which jobs
 * never see.
 */
export async function sandboxedRuns(n, command = 'true', until = 'exit') {
  const { ProcessDriver } = await import(`${dist}/process/driver.js`);
  const { BWRAP } = await import(`${dist}/process/sandbox.js`);
  if (!existsSync(BWRAP)) throw new Error('bubblewrap is not installed');
  const dataDir = mkdtempSync('/var/tmp/orrery-bench-sandbox-');
  const driver = new ProcessDriver({ dataDir, killGraceMs: 1000 });
  const times = [];
  try {
    for (let i = 0; i < n; i++) {
      const id = `bench-${i}`;
      const done = join(dataDir, 'jobs', id, until);
      const limits = { cpu: 0.5, memory: 256 * 2 ** 20, shm: false };
      const t0 = performance.now();
      await driver.start({
        id,
        image: 'x',
        command,
        env: {},
        mounts: [],
        limits,
        tty: false,
        privileged: false,
      });
      while (!(existsSync(done) && statSync(done).size > 0)) await sleep(0.5);
      times.push(performance.now() - t0);
      await driver.remove(id);
    }
  } finally {
    await driver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { times, warning: driver.warning };
}

async function bareRuns(n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const child = spawn('/bin/true', { stdio: 'ignore' });
    await new Promise((r, j) => child.once('exit', r).once('error', j));
    times.push(performance.now() - t0);
  }
  return times;
}

export async function benchSandbox() {
  const { times, warning } = await sandboxedRuns(runs);
  const bare = await bareRuns(runs);
  row(
    `sandbox start floor: start() → \`true\` exited (${times.length} runs)`,
    `median ${ms(median(times))}, p99 ${ms(pct(times, 99))}`,
    `${(median(times) / median(bare)).toFixed(1)}× bare${warning ? ` (${warning.split('.')[0]})` : ''}`,
  );
  row(
    `bare child_process.spawn of \`true\` to its exit (${bare.length} runs)`,
    `median ${ms(median(bare))}, p99 ${ms(pct(bare, 99))}`,
  );
}
