// The bake engine on the process runtime: what the engine adds to each task of a
// bake. A chain of 20 tasks that do nothing (`true`) is started through `flow/bakes/start`; the
// bake's wall time (the start request until its last job is seen finished) minus the sum of its
// jobs' run times, divided by 20, is the overhead per task. Next to it the same 20 jobs
// submitted one after another through the jobs API by this script, each waited for: what a
// client pays without the engine.
import { median, ms, pct, row } from './report.mjs';
import { sleep } from './server.mjs';
import { jobBody, statusOf, until } from './jobs.mjs';

const TASKS = Number(process.env.BENCH_FLOW_TASKS ?? 20);
const ROUNDS = Number(process.env.BENCH_FLOW_ROUNDS ?? 3);
const FINAL = new Set(['succeeded', 'failed', 'cancelled']);

/** A chain: each task needs the one before; no cache, so every round runs every task. */
const chain = (n) =>
  [
    'kind: batch',
    'tasks:',
    ...Array.from({ length: n }, (_, i) => [
      `  - id: t${i}`,
      ...(i ? [`    needs: [t${i - 1}]`] : []),
      '    image: busybox:orrery',
      '    preset: cpu-small',
      '    cmd: "true"',
      '    cache:',
      '      strategy: none',
    ]).flat(),
  ].join('\n');

const runMs = (job) => Date.parse(job.history.finished_at) - Date.parse(job.history.started_at);

/** ms from each task's job ending to the next task's job being created: the engine's own part. */
function handoffs(jobs) {
  const byTask = new Map(jobs.map((j) => [j.tags.find((t) => t.startsWith('task:')), j]));
  const out = [];
  for (let i = 1; i < TASKS; i++) {
    const before = byTask.get(`task:t${i - 1}`);
    const next = byTask.get(`task:t${i}`);
    out.push(Date.parse(next.history.created_at) - Date.parse(before.history.finished_at));
  }
  return out;
}

/** One bake of the chain: its wall time and the sum of its jobs' run times, in ms. */
async function bakeOnce(api, round) {
  const t0 = performance.now();
  const bake = await api.post('/api/v1/flow/bakes/start', {
    cluster: 'default',
    org_name: 'bench',
    project_name: 'bench',
    flow_name: 'bench_chain',
    name: `chain-${Date.now()}-${round}`,
    content: chain(TASKS),
  });
  const query = `/api/v1/jobs?tag=${encodeURIComponent(`bake_id:${bake.id}`)}`;
  for (;;) {
    const { jobs } = await api.get(query);
    const failed = jobs.find((j) => FINAL.has(statusOf(j)) && statusOf(j) !== 'succeeded');
    if (failed) throw new Error(`task job ${failed.id} ended ${statusOf(failed)}`);
    if (jobs.length === TASKS && jobs.every((j) => statusOf(j) === 'succeeded')) {
      const wall = performance.now() - t0;
      return { wall, run: jobs.reduce((s, j) => s + runMs(j), 0), handoffs: handoffs(jobs) };
    }
    if (performance.now() - t0 > 120_000) throw new Error(`bake ${bake.id} did not finish`);
    await sleep(10);
  }
}

/** The same jobs without the engine: submitted one after another, each waited for. */
async function bareOnce(api) {
  const t0 = performance.now();
  let run = 0;
  for (let i = 0; i < TASKS; i++) {
    const job = await api.post('/api/v1/jobs?from_preset', jobBody('true'));
    const done = await until(api, job.id, (j) => statusOf(j) === 'succeeded', { everyMs: 10 });
    run += runMs(done);
  }
  return { wall: performance.now() - t0, run };
}

export async function benchFlows(server) {
  const { api } = server;
  const perTask = ({ wall, run }) => (wall - run) / TASKS;
  const engine = [];
  const bare = [];
  const handoff = [];
  // Alternated, so that both see the same machine load.
  for (let r = 0; r < ROUNDS; r++) {
    const bake = await bakeOnce(api, r);
    engine.push(perTask(bake));
    handoff.push(...bake.handoffs);
    bare.push(perTask(await bareOnce(api)));
  }
  row(
    `bake engine overhead per task, chain of ${TASKS} \`true\` tasks (median of ${ROUNDS} bakes)`,
    ms(median(engine)),
    'aim ≤ 150 ms',
  );
  row(
    "of which the engine's own: a task's job ended → the next task's job created",
    `median ${ms(median(handoff))}, p99 ${ms(pct(handoff, 99))}`,
  );
  row(
    `the same ${TASKS} jobs submitted one by one through the jobs API, each waited for`,
    ms(median(bare)),
    'baseline',
  );
}
