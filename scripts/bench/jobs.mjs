// Jobs on the process runtime, plus the pieces the docker section reuses: how long a
// submitted job takes to be seen running (the client polls as the console and CLI do, here every
// 5 ms so polling adds little), next to what the runtime underneath costs by itself; a burst of
// jobs against the smallest preset; and a 1 GB log streamed back next to `cat`.
import { spawn, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { statSync } from 'node:fs';
import { median, mbps, ms, notMeasured, pct, row } from './report.mjs';
import { curl, sleep } from './server.mjs';
import { cpuMsOf, startBareHttp } from './bare-http.mjs';

const FINAL = new Set(['succeeded', 'failed', 'cancelled']);
export const jobsCount = Number(process.env.BENCH_JOBS ?? 100);
const burst = Number(process.env.BENCH_CONCURRENT ?? 50);
const logBytesWanted = Number(process.env.BENCH_LOG_MB ?? 1000) * 1e6;
const logRounds = Number(process.env.BENCH_LOG_ROUNDS ?? 3);

/** The flat body of `POST /api/v1/jobs?from_preset` in project bench/bench. */
export const jobBody = (command, extra = {}) => ({
  cluster_name: 'default',
  org_name: 'bench',
  project_name: 'bench',
  preset_name: 'cpu-small',
  image: 'busybox:orrery',
  command,
  ...extra,
});

/** Polls a job every `everyMs` until `done(job)`; throws when it ends otherwise or times out. */
export async function until(api, id, done, { everyMs = 5, timeoutMs = 60000 } = {}) {
  const t0 = Date.now();
  for (;;) {
    const job = await api.get(`/api/v1/jobs/${id}`);
    if (done(job)) return job;
    const st = job.history?.status ?? job.status;
    if (FINAL.has(st))
      throw new Error(
        `job ${id} ended ${st}: ${job.history?.reason ?? ''} ${job.history?.description ?? ''}`,
      );
    if (Date.now() - t0 > timeoutMs)
      throw new Error(
        `job ${id} still ${st} after ${timeoutMs} ms: ${job.history?.reason ?? ''} ${job.history?.description ?? ''}`,
      );
    await sleep(everyMs);
  }
}
export const statusOf = (job) => job.history?.status ?? job.status;

/**
 * Submit → seen running, one job at a time, each killed once running and waited out so the next
 * one finds the capacity free. Returns the latencies in ms.
 */
export async function submitToRunning(api, n, command = 'sleep 5') {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const job = await api.post('/api/v1/jobs?from_preset', jobBody(command));
    await until(api, job.id, (j) => statusOf(j) === 'running');
    times.push(performance.now() - t0);
    await api.del(`/api/v1/jobs/${job.id}`);
    await until(api, job.id, (j) => FINAL.has(statusOf(j)), { everyMs: 20 }).catch((e) => {
      if (!/ended cancelled/.test(e.message)) throw e;
    });
  }
  return times;
}

/** ms from `spawn()` to the child's `spawn` event for `/bin/sh -c command`: the floor. */
async function bareSpawn(n, command = 'sleep 5') {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const child = spawn('/bin/sh', ['-c', command], { stdio: 'ignore', detached: true });
    await new Promise((r, j) => child.once('spawn', r).once('error', j));
    times.push(performance.now() - t0);
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid, 'SIGKILL');
    await exited;
  }
  return times;
}

/** The row pair of a runtime: the job latency and its bare counterpart, with the ratio. */
export function latencyRows(runtime, jobTimes, bareName, bareTimes, aim) {
  const m = median(jobTimes);
  const b = median(bareTimes);
  row(
    `submit → running, ${runtime} runtime (${jobTimes.length} jobs)`,
    `median ${ms(m)}, p99 ${ms(pct(jobTimes, 99))}`,
    `${(m / b).toFixed(1)}× ${bareName} (${aim})`,
  );
  row(
    `${bareName} of the same command (${bareTimes.length} runs)`,
    `median ${ms(b)}, p99 ${ms(pct(bareTimes, 99))}`,
  );
}

export async function benchProcessJobs(server) {
  const { api } = server;
  const jobs = await submitToRunning(api, jobsCount);
  const bare = await bareSpawn(jobsCount);
  latencyRows('process', jobs, 'bare child_process.spawn', bare, 'aim ≤ 3×, median ≤ 150 ms');
  try {
    // The same command in the driver's sandbox alone (no API, no scheduler), until it prints.
    const { sandboxedRuns } = await import('./sandbox.mjs');
    const { times } = await sandboxedRuns(jobsCount, 'echo; exec sleep 5', 'output');
    row(
      `same command in the runtime's sandbox, until it prints (${times.length} runs)`,
      `median ${ms(median(times))}, p99 ${ms(pct(times, 99))}`,
      'floor of the process runtime',
    );
  } catch (e) {
    notMeasured("same command in the runtime's sandbox", e.message);
  }
  await benchBurst(api, 'process');
  await benchLog(server);
}

/**
 * `burst` jobs submitted at once on the smallest preset. They cannot all run together (the
 * capacity endpoint says how many fit), so each is killed as soon as it is seen running and the
 * figure is the time until the last one got to run: the scheduler's pace under a queue.
 */
export async function benchBurst(api, runtime) {
  const what = `${burst} jobs submitted at once, ${runtime} runtime (cpu-small)`;
  try {
    const capacity = (await api.get('/api/v1/jobs/capacity'))['cpu-small'];
    const tag = `burst-${Date.now().toString(36)}`;
    const t0 = performance.now();
    const made = await Promise.all(
      Array.from({ length: burst }, () =>
        api.post('/api/v1/jobs?from_preset', jobBody('sleep 60', { tags: [tag] })),
      ),
    );
    const submitted = performance.now() - t0;
    const seen = new Map(); // id → ms when first seen running (or past it)
    const killed = new Set();
    let most = 0;
    for (;;) {
      const { jobs } = await api.get(
        `/api/v1/jobs?org_name=bench&project_name=bench&tag=${tag}&limit=${burst}`,
      );
      const now = performance.now() - t0;
      const running = jobs.filter((j) => statusOf(j) === 'running');
      most = Math.max(most, running.length);
      for (const j of jobs) {
        const st = statusOf(j);
        if (st === 'failed') throw new Error(`job ${j.id} failed: ${j.history?.reason}`);
        if ((st === 'running' || j.history?.started_at) && !seen.has(j.id)) seen.set(j.id, now);
      }
      // Kill what runs so the queue moves; kills go out without waiting for each other.
      await Promise.all(
        running
          .filter((j) => !killed.has(j.id))
          .map((j) => (killed.add(j.id), api.del(`/api/v1/jobs/${j.id}`))),
      );
      if (jobs.every((j) => FINAL.has(statusOf(j)))) break;
      if (now > 600_000) throw new Error(`${seen.size} of ${burst} ran within 10 min`);
      await sleep(10);
    }
    const allRunning = Math.max(...seen.values());
    row(
      what,
      `all ${made.length} accepted in ${ms(submitted)}, all had run after ${ms(allRunning)}; at most ${most} running at once (capacity ${capacity})`,
      'figure only',
    );
  } catch (e) {
    notMeasured(what, e.message);
  }
}

/**
 * A job writes ~1 GB of 100-character lines; its finished log is downloaded next to `cat` and to
 * a bare Node HTTP server of the same file. The two downloads alternate for BENCH_LOG_ROUNDS
 * rounds (medians), so both see the same load from the machine's neighbours; the CPU each server
 * spends per GB is the steadier figure on a shared machine.
 */
async function benchLog(server) {
  const what = `log download of ${(logBytesWanted / 1e9).toFixed(2)} GB (GET /jobs/{id}/log)`;
  const { api } = server;
  try {
    const command = `sh -c "head -c ${Math.round(logBytesWanted / 1.01)} /dev/zero | tr '\\\\0' a | fold -w 100"`;
    const job = await api.post(
      '/api/v1/jobs?from_preset',
      jobBody(command, { preset_name: 'cpu-medium' }),
    );
    const done = await until(api, job.id, (j) => FINAL.has(statusOf(j)), {
      everyMs: 200,
      timeoutMs: 600_000,
    });
    if (statusOf(done) !== 'succeeded') throw new Error(`log job ${statusOf(done)}`);
    const file = join(server.dataDir, 'jobs', job.id, 'output');
    const size = statSync(file).size;
    const gb = size / 1e9;
    // The job's gigabyte is still being written back to disk: the first download would pay for
    // that and the later ones not.
    execFileSync('sync');
    // cat of the job's own log file, output discarded: reading the same bytes, nothing more.
    const t0 = performance.now();
    execFileSync('sh', ['-c', `cat '${file}' > /dev/null`]);
    const catRate = mbps(size, performance.now() - t0);
    const log = { rates: [], cpu: [] };
    const bare = { rates: [], cpu: [] };
    const plain = await startBareHttp(file);
    try {
      for (let i = 0; i < logRounds; i++) {
        await download(log, server.pid, size, [
          '-H',
          `authorization: ${api.headers.authorization}`,
          `${server.base}/api/v1/jobs/${job.id}/log`,
        ]);
        await download(bare, plain.pid, size, [plain.url]);
      }
    } finally {
      plain.stop();
    }
    const [rate, bareRate] = [median(log.rates), median(bare.rates)];
    const perGb = (d) => `server CPU ${ms(median(d.cpu) / gb)}/GB`;
    row(
      what,
      `${rate.toFixed(0)} MB/s, ${perGb(log)} (median of ${logRounds})`,
      `${(rate / bareRate).toFixed(2)} of bare Node http, CPU ${(median(bare.cpu) / median(log.cpu)).toFixed(2)} (aim ≥ 0.8)`,
    );
    row(
      `bare Node http of the same log file to curl`,
      `${bareRate.toFixed(0)} MB/s, ${perGb(bare)}`,
      `ratio to cat ${(bareRate / catRate).toFixed(2)}: the HTTP floor here`,
    );
    row(`cat of the job's log file (${gb.toFixed(2)} GB)`, `${catRate.toFixed(0)} MB/s`);
  } catch (e) {
    notMeasured(what, e.message, '≥ 0.8 of bare Node http');
  }
}

/** One download by curl to /dev/null: its rate, and the CPU the serving process spent on it. */
async function download(into, pid, size, args) {
  const cpu0 = cpuMsOf(pid);
  const t0 = performance.now();
  const got = await curl(['-o', '/dev/null', ...args]);
  const took = performance.now() - t0;
  if (got.status !== 200 || got.bytes !== size)
    throw new Error(`answer ${got.status}, ${got.bytes} of ${size} bytes`);
  into.rates.push(mbps(size, took));
  into.cpu.push(cpuMsOf(pid) - cpu0);
}
