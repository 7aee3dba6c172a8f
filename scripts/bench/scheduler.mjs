// The scheduler's core (packages/server/src/modules/scheduler, as built in dist), on simulated
// capacity held in memory: one admission pass over many waiting jobs beside a bare
// first-in-first-out first-fit pass over the same jobs, admissions per second with jobs ending
// at random, and the fairness of GPU time between four projects over a simulated day (Jain's
// index: 1 when each gets the same, 1/n when one gets all), the bare pass's beside it.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../lib.mjs';
import { median, ms, row } from './report.mjs';
import { startServer } from './server.mjs';
import { jobBody, until } from './jobs.mjs';

const DIST = join(ROOT, 'packages/server/dist/modules/scheduler');
const WAITING = Number(process.env.BENCH_SCHED_JOBS ?? 10000);
const PROJECTS = Number(process.env.BENCH_SCHED_PROJECTS ?? 100);
const GPU_NODE = { cpu: 64, memory: 512e9, nvidia_gpu: 8 };
const nodesOf = (n) =>
  Array.from({ length: n }, (_, i) => ({ name: `n${i}`, pool: 'gpu', capacity: GPU_NODE }));
const RESOURCES = ['cpu', 'memory', 'nvidia_gpu'];

/** The baseline: oldest first, each on the first node it fits, no shares, no quotas. */
function fifo({ nodes, running, waiting }) {
  const free = new Map(nodes.map((n) => [n.name, { ...n.capacity }]));
  for (const j of running) for (const r of RESOURCES) free.get(j.node)[r] -= j.requests[r] ?? 0;
  const admit = [];
  for (const j of [...waiting].sort((a, b) => a.createdAt - b.createdAt)) {
    const node = nodes.find((n) =>
      RESOURCES.every((r) => (j.requests[r] ?? 0) <= free.get(n.name)[r]),
    );
    if (!node) continue;
    for (const r of RESOURCES) free.get(node.name)[r] -= j.requests[r] ?? 0;
    admit.push({ job: j.id, node: node.name });
  }
  return { admit };
}

const timed = (fn, runs) => {
  const t = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    t.push(performance.now() - start);
  }
  return median(t);
};

/** A random number generator of its own, so that every run simulates the same day. */
function seeded(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const gpuJob = (id, project, at, gpus) => ({
  id,
  org: 'bench',
  project,
  priority: 1,
  requests: { cpu: 4 * gpus, memory: 32e9 * gpus, nvidia_gpu: gpus },
  preemptible: false,
  createdAt: at,
});

/**
 * A day in minutes on 16 nodes of 8 GPUs: at 06:00 project `early` submits 400 jobs; the other
 * three submit one every two minutes from then on; jobs take 1 to 4 GPUs for 30 to 120 minutes. Returns the
 * GPU-minutes each project got.
 */
function simulateDay(pass, decay) {
  const rnd = seeded(42);
  const nodes = nodesOf(16);
  const projects = ['early', 'b', 'c', 'd'];
  const gpuMinutes = Object.fromEntries(projects.map((p) => [p, 0]));
  let waiting = [];
  let running = [];
  let history = new Map();
  let n = 0;
  const job = (project, at) => {
    const j = gpuJob(`j${n++}`, project, at, 1 + Math.floor(rnd() * 4));
    j.minutes = 30 + Math.floor(rnd() * 90);
    return j;
  };
  for (let minute = 0; minute < 24 * 60; minute++) {
    const now = minute * 60e3;
    if (minute === 6 * 60) for (let i = 0; i < 400; i++) waiting.push(job('early', now));
    if (minute >= 6 * 60 && minute % 2 === 0)
      for (const p of projects.slice(1)) waiting.push(job(p, now));
    running = running.filter((j) => j.endsAt > now);
    const held = new Map();
    for (const j of running) {
      gpuMinutes[j.project] += j.requests.nvidia_gpu;
      const k = `${j.org}/${j.project}`;
      held.set(k, (held.get(k) ?? 0) + j.requests.nvidia_gpu);
    }
    history = new Map(
      projects.map((p) => {
        const k = `bench/${p}`;
        return [k, decay(history.get(k) ?? {}, { nvidia_gpu: held.get(k) ?? 0 }, 60e3, 3600e3)];
      }),
    );
    const d = pass({ nodes, running, waiting, history, now, starvationMs: 4 * 3600e3 });
    const admitted = new Map(d.admit.map((a) => [a.job, a.node]));
    for (const j of waiting)
      if (admitted.has(j.id))
        running.push({
          ...j,
          node: admitted.get(j.id),
          startedAt: now,
          endsAt: now + j.minutes * 60e3,
        });
    waiting = waiting.filter((j) => !admitted.has(j.id));
  }
  return projects.map((p) => gpuMinutes[p]);
}

const jain = (xs) =>
  xs.reduce((a, x) => a + x, 0) ** 2 / (xs.length * xs.reduce((a, x) => a + x * x, 0));

export async function benchScheduler() {
  const { decide } = await import(pathToFileURL(join(DIST, 'decide.js')).href);
  const { decay } = await import(pathToFileURL(join(DIST, 'resources.js')).href);

  const nodes = nodesOf(50);
  const waiting = Array.from({ length: WAITING }, (_, i) => ({
    ...gpuJob(`j${i}`, `p${i % PROJECTS}`, i, 1 + (i % 2)),
    org: `o${i % 10}`,
    priority: i % 3,
  }));
  const input = { nodes, running: [], waiting, now: 1e9, starvationMs: 3600e3 };
  decide(input);
  row(
    `Admission pass: ${WAITING} waiting jobs of ${PROJECTS} projects, 50 GPU nodes (median of 5)`,
    ms(timed(() => decide(input), 5)),
    '≤ 50 ms',
  );
  row('  bare first-in-first-out first fit, same jobs', ms(timed(() => fifo(input), 5)));

  // A full cluster whose jobs end at random: each pass admits what the ended ones freed.
  const rnd = seeded(7);
  let running = [];
  let queue = waiting.slice(0, 2000);
  let next = 0;
  let admitted = 0;
  const start = performance.now();
  while (performance.now() - start < 2000) {
    running = running.filter(() => rnd() > 0.2);
    const d = decide({ nodes, running, waiting: queue, now: 1e9, starvationMs: 3600e3 });
    const placed = new Map(d.admit.map((a) => [a.job, a.node]));
    for (const j of queue)
      if (placed.has(j.id)) running.push({ ...j, node: placed.get(j.id), startedAt: 0 });
    queue = queue.filter((j) => !placed.has(j.id));
    while (queue.length < 2000) queue.push({ ...waiting[next++ % WAITING], id: `r${next}` });
    admitted += placed.size;
  }
  const seconds = (performance.now() - start) / 1000;
  row(
    'Admissions per second, 2,000 waiting, jobs ending at random',
    Math.round(admitted / seconds),
    '≥ 1,000/s',
  );

  const fair = simulateDay(decide, decay);
  const bare = simulateDay(fifo, decay);
  row(
    "Jain's index of GPU time, 4 projects over a simulated day (one floods at 06:00)",
    jain(fair).toFixed(3),
    '≥ 0.95',
  );
  row('  bare first-in-first-out first fit, same day', jain(bare).toFixed(3));
}

const GRACE_S = 2;

/**
 * On the process runtime: two low-priority jobs of a preemptible preset fill this machine's cores,
 * then a high-priority job of the same project arrives. Measured from the server's own history:
 * the victim's move to `suspended` (the preemption decision) to the new job's `running`, for a
 * victim that ends at SIGTERM and one that ignores it (SIGKILL after the kill grace).
 */
export async function benchPreemption() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-preempt-'));
  const server = await startServer(dataDir, {
    ORRERY_RUNTIME: 'process',
    ORRERY_KILL_GRACE_SECONDS: String(GRACE_S),
  });
  try {
    const { api } = server;
    const half = cpus().length / 2;
    await api.post('/api/v1/clusters/default/orchestrator/resource_presets', {
      name: 'half-spot',
      cpu: half,
      memory: 64 * 2 ** 20,
      credits_per_hour: '1',
      scheduler_enabled: true,
    });
    const running = (j) => j.status === 'running';
    const at = (job, found) => Date.parse(job.statuses.findLast(found).transition_time);
    for (const [label, command] of [
      ['victim ends at SIGTERM', 'sleep 600'],
      [`victim ignores SIGTERM (kill grace ${GRACE_S} s)`, "trap '' TERM; sleep 600"],
    ]) {
      const times = [];
      for (let round = 0; round < 3; round++) {
        const low = [];
        for (let i = 0; i < 2; i++) {
          const j = await api.post(
            '/api/v1/jobs?from_preset',
            jobBody(command, { preset_name: 'half-spot', priority: 'low', image: 'busybox' }),
          );
          await until(api, j.id, running);
          low.push(j.id);
        }
        const high = await api.post(
          '/api/v1/jobs?from_preset',
          jobBody('sleep 600', { preset_name: 'half-spot', priority: 'high', image: 'busybox' }),
        );
        const started = await until(api, high.id, running, { everyMs: 20 });
        const victims = await Promise.all(low.map((id) => api.get(`/api/v1/jobs/${id}`)));
        const preempted = (t) => t.reason === 'Preempted';
        const victim = victims.find((v) => v.statuses.some(preempted));
        // From the decision (the victim's move to suspended, reason Preempted; it then waits,
        // which its history says in later entries) to the new job's start.
        times.push(at(started, (t) => t.status === 'running') - at(victim, preempted));
        for (const id of [...low, high.id]) await api.del(`/api/v1/jobs/${id}`);
        for (const id of [...low, high.id])
          await until(api, id, (j) => ['cancelled', 'succeeded', 'failed'].includes(j.status));
      }
      row(
        `Preemption decision → the new job running, ${label} (median of 3)`,
        ms(median(times)),
        `≤ ${GRACE_S} s + 2 s`,
      );
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * What the admission pass reads before it decides, measured apart from the pass: the unfinished
 * jobs of an in-memory embedded database holding WAITING pending jobs of PROJECTS projects, and
 * the scheduler's input built from them (jobs/queue.ts: presets' pools and quotas read once).
 */
export async function benchSchedulerLoad() {
  const dist = join(ROOT, 'packages/server/dist');
  const load = async (path) => import(pathToFileURL(join(dist, path)).href);
  const { openDatabase } = await load('db/client.js');
  const { unfinishedJobs } = await load('modules/jobs/store.js');
  const { JobQueue } = await load('modules/jobs/queue.js');
  const database = await openDatabase({ dataDir: null });
  try {
    const { db } = database;
    const { jobs } = await load('db/schema.js');
    // The jobs alone are measured: their projects, organizations and users are not made, so
    // the foreign keys are not checked while they are written.
    const { sql } = await import('drizzle-orm');
    await db.execute(sql.raw('SET session_replication_role = replica'));
    const container = (i) => ({
      image: 'busybox',
      command: 'sleep 60',
      resources: { cpu: 4, memory: 32e9, memory_mb: 30518, shm: false, nvidia_gpu: 1 + (i % 2) },
      env: {},
      secret_env: {},
      volumes: [],
      secret_volumes: [],
      disk_volumes: [],
      tty: false,
    });
    for (let at = 0; at < WAITING; at += 500) {
      await db.insert(jobs).values(
        Array.from({ length: Math.min(500, WAITING - at) }, (_, k) => {
          const i = at + k;
          return {
            id: `job-bench-${i}`,
            clusterName: 'default',
            orgName: `o${i % 10}`,
            projectName: `p${i % PROJECTS}`,
            owner: 'bench',
            status: 'pending',
            container: container(i),
            runtime: 'process',
            priority: ['low', 'normal', 'high'][i % 3],
            createdAt: new Date(1e12 + i),
          };
        }),
      );
    }
    const driver = {
      nodes: async () =>
        Array.from({ length: 50 }, (_, i) => ({
          name: `n${i}`,
          pool: 'gpu',
          cpu: 64,
          memory: 512e9,
          gpus: { nvidia: 8 },
        })),
    };
    const queue = new JobQueue(db, driver, { halfLifeMs: 3600e3, starvationMs: 3600e3 });
    const times = [];
    for (let round = 0; round < 6; round++) {
      const start = performance.now();
      const rows = await unfinishedJobs(db);
      await queue.input(rows, new Map(), Date.now());
      if (round > 0) times.push(performance.now() - start);
    }
    row(
      `Reading the ${WAITING} waiting jobs from the embedded database and building the pass's input (median of 5)`,
      ms(median(times)),
    );
  } finally {
    await database.close?.();
  }
}
