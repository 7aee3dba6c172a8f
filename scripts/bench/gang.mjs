// Jobs of several workers on the process runtime (docs/jobs.md "Distributed jobs"): submit → the
// job running, which for a gang means every worker running in its own sandbox, for one worker
// (the baseline) and gangs of 2 and 4, on a server of its own. Polled every 5 ms, as the jobs
// section does, so that polling adds little. Sandboxed workers need a root server with bubblewrap
// (the runtime refuses gangs otherwise: the section then says why it measured nothing).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, ms, row } from './report.mjs';
import { startServer } from './server.mjs';
import { jobBody, statusOf, until } from './jobs.mjs';

const RUNS = Number(process.env.BENCH_GANG_RUNS ?? 5);
const FINAL = new Set(['succeeded', 'failed', 'cancelled']);

export async function benchGang() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-gang-'));
  const server = await startServer(dataDir, { ORRERY_RUNTIME: 'process' });
  try {
    const { api } = server;
    const info = await api.get('/api/v1/jobs/runtime');
    if (info.workers_refusal) throw new Error(info.workers_refusal);
    // Alternated run by run, so that the machine's load weighs on every size alike.
    const times = new Map([1, 2, 4].map((n) => [n, []]));
    for (let run = 0; run < RUNS; run++) {
      for (const nodes of times.keys()) {
        const t0 = performance.now();
        const job = await api.post(
          '/api/v1/jobs?from_preset',
          jobBody('exec sleep 600', nodes > 1 ? { nodes } : {}),
        );
        await until(api, job.id, (j) => statusOf(j) === 'running');
        times.get(nodes).push(performance.now() - t0);
        await api.del(`/api/v1/jobs/${job.id}`);
        await until(api, job.id, (j) => FINAL.has(statusOf(j)), { everyMs: 20 }).catch((e) => {
          if (!/ended cancelled/.test(e.message)) throw e;
        });
      }
    }
    const one = median(times.get(1));
    row(`submit → running, one worker, process runtime (median of ${RUNS})`, ms(one));
    for (const nodes of [2, 4]) {
      const m = median(times.get(nodes));
      row(
        `submit → all ${nodes} workers running, process runtime (median of ${RUNS})`,
        ms(m),
        `${(m / one).toFixed(1)}× one worker`,
      );
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
