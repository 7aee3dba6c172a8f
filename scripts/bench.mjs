// `npm run bench`: one table of figures (measure / value / aim), never assertions. Sections live
// in scripts/bench/; this file only orders them and owns the servers they share.
//
// Sizes come from the environment so a run on a shared machine can stay short:
//   BENCH_ONLY=startup,throughput,soak,console,graph,storage,jobs,flows,sandbox,apps,docker,list,
//              billing,assistant-knowledge,assistant,assistant-model,replicas,slurm,slurm-gang,
//              scheduler,gang
//              sections (default all)
//   BENCH_APP_RUNS (5)  starts of each built-in app template on the process runtime
//   BENCH_FILE_MB (1024)  BENCH_LIST_ENTRIES (100000)  BENCH_JOBS (100)  BENCH_CONCURRENT (50)
//   BENCH_LOG_MB (1000)   BENCH_LIST_JOBS (100000)     BENCH_LIST_REQUESTS (200)
//   BENCH_APP_INSTALLS (10)  BENCH_APP_INSTANCES (1000)  BENCH_GRAPH_TASKS (1000)
//   BENCH_USAGE_RECORDS (1000000)  BENCH_BILLING_REQUESTS (200)
//   BENCH_FLOW_TASKS (20)  BENCH_FLOW_ROUNDS (3)  the bake engine's chain and how many bakes of it
//   BENCH_LOG_ROUNDS (3)  downloads of the log and of its bare Node http baseline, alternated
//   BENCH_SCHED_JOBS (10000)  BENCH_SCHED_PROJECTS (100)  the scheduler's admission pass
//   BENCH_GANG_RUNS (5)  submits of each size (1, 2 and 4 workers) on the process runtime
//   BENCH_SLURM_RUNS (10)  submits per path on the private Slurm cluster (scripts/slurm.mjs),
//              and rounds of the gang of two (slurm-gang)
//   BENCH_REPLICA_KILLS (5)  jobs killed through one replica and watched on the other
//   BENCH_LOAD_SECONDS (5)   BENCH_SOAK_SECONDS (600)   BENCH_SOAK_RATE (200 requests/s)
//   BENCH_KNOWLEDGE_BUILDS (5)  BENCH_KNOWLEDGE_ROUNDS (20)  index builds, passes over the questions
//   BENCH_ASSISTANT_SECONDS (5)  BENCH_ASSISTANT_SOCKETS (8)  the copilot socket's load
//   BENCH_NO_BUILD=1 skips the build check (dist known to be fresh)
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ensureDependencies, log } from './lib.mjs';
import { mb, notMeasured, printTable, row } from './bench/report.mjs';
import { attachServer, rssOf, startServer } from './bench/server.mjs';

ensureDependencies();
if (!process.env.BENCH_NO_BUILD) ensureBuilt();

const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const wanted = (name) => !only || only.includes(name);

const work = mkdtempSync(join(tmpdir(), 'orrery-bench-'));
// Sandboxed jobs run as uids of their own that must pass through here to the data directory
// (docs/security.md): searchable, not listable.
chmodSync(work, 0o711);
const dataDir = join(work, 'data');
const cleanups = [];
const tidy = async () => {
  // Best effort: one cleanup that fails must not keep the others (and the rm below) from running.
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
};
process.once('SIGINT', () => void tidy().then(() => process.exit(130)));

/** A section that throws prints "not measured" instead of ending the run. */
async function section(name, title, fn) {
  if (!wanted(name)) return;
  log(title);
  try {
    await fn();
  } catch (e) {
    notMeasured(title, e.message);
  }
}

// The main server runs jobs on the process runtime, whatever this machine has.
const mainEnv = { ORRERY_RUNTIME: 'process' };
let main;
try {
  if (
    !['startup', 'throughput', 'soak', 'console', 'graph', 'storage', 'jobs', 'flows'].some(wanted)
  ) {
    // Only the sections with servers of their own (sandbox, apps, docker, slurm, list, billing,
    // assistant) or none (assistant-knowledge, assistant-model) were asked for.
  } else if (wanted('startup')) {
    log('Start to ready');
    const { benchStartup } = await import('./bench/startup.mjs');
    const { child, base } = await benchStartup(dataDir, mainEnv);
    main = await attachServer(child, base, dataDir, mainEnv);
  } else {
    main = await startServer(dataDir, mainEnv);
  }
  if (main) {
    cleanups.push(() => main.stop());
    row('server RSS at rest (PGlite, the default)', mb(rssOf(main.pid)));
  }

  await section('throughput', 'Throughput', async () => {
    const { benchThroughput } = await import('./bench/throughput.mjs');
    await benchThroughput(main, work);
  });
  await section('soak', 'Sustained load', async () => {
    const { benchSoak } = await import('./bench/soak.mjs');
    await benchSoak(main);
  });
  await section('console', 'Console bundle', async () => {
    const { benchBundle } = await import('./bench/console.mjs');
    benchBundle();
  });
  await section('console', 'Navigation', async () => {
    const { benchNavigation } = await import('./bench/console.mjs');
    await benchNavigation(main);
  });
  await section('graph', 'Bake graph', async () => {
    const { benchFlowGraph } = await import('./bench/flow-graph.mjs');
    await benchFlowGraph(main);
  });
  await section('storage', 'Storage', async () => {
    const { benchStorage } = await import('./bench/storage.mjs');
    await benchStorage(main, work);
  });
  await section('jobs', 'Jobs (process runtime)', async () => {
    const { benchProcessJobs } = await import('./bench/jobs.mjs');
    await benchProcessJobs(main);
  });
  await section('flows', 'Bake engine (process runtime)', async () => {
    const { benchFlows } = await import('./bench/flows.mjs');
    await benchFlows(main);
  });
  await section('sandbox', 'Process runtime sandbox', async () => {
    const { benchSandbox } = await import('./bench/sandbox.mjs');
    await benchSandbox();
  });
  await section('apps', 'App templates (process runtime)', async () => {
    const { benchAppTemplates } = await import('./bench/app-templates.mjs');
    await benchAppTemplates();
  });
  await section('docker', 'Jobs (docker runtime)', async () => {
    const { benchDockerJobs } = await import('./bench/docker.mjs');
    await benchDockerJobs(work);
  });
  await section(
    'scheduler',
    'Scheduler (core on simulated capacity; preemption on the process runtime)',
    async () => {
      const { benchScheduler, benchSchedulerLoad, benchPreemption } =
        await import('./bench/scheduler.mjs');
      await benchScheduler();
      await benchSchedulerLoad();
      await benchPreemption();
    },
  );
  await section('gang', 'Jobs of several workers (process runtime)', async () => {
    const { benchGang } = await import('./bench/gang.mjs');
    await benchGang();
  });
  await section('slurm', 'Slurm runtime', async () => {
    const { benchSlurm } = await import('./bench/slurm.mjs');
    await benchSlurm();
  });
  await section('slurm-gang', 'Slurm runtime, a job of two workers', async () => {
    const { benchSlurmGang } = await import('./bench/slurm-gang.mjs');
    await benchSlurmGang();
  });
  await section('list', 'Jobs list on PostgreSQL', async () => {
    const { benchJobsListPostgres } = await import('./bench/jobs-list.mjs');
    await benchJobsListPostgres(work);
  });
  await section('list', 'Jobs list on PGlite', async () => {
    const { benchJobsListPglite } = await import('./bench/jobs-list.mjs');
    await benchJobsListPglite(work);
  });
  await section('apps', 'Apps on PostgreSQL', async () => {
    const { benchApps } = await import('./bench/apps-list.mjs');
    await benchApps(work);
  });
  await section('billing', 'Usage query on PostgreSQL', async () => {
    const { benchBillingPostgres } = await import('./bench/billing.mjs');
    await benchBillingPostgres(work);
  });
  await section('billing', 'Usage query on PGlite', async () => {
    const { benchBillingPglite } = await import('./bench/billing.mjs');
    await benchBillingPglite(work);
  });
  await section('replicas', 'Two replicas on PostgreSQL', async () => {
    const { benchReplicas } = await import('./bench/replicas.mjs');
    await benchReplicas(work);
  });
  await section('assistant-knowledge', 'Assistant knowledge (embedded)', async () => {
    const { benchAssistantKnowledge } = await import('./bench/assistant-knowledge.mjs');
    await benchAssistantKnowledge();
  });
  await section('assistant', 'Copilot socket', async () => {
    const { benchAssistant } = await import('./bench/assistant.mjs');
    await benchAssistant(work);
  });
  await section('assistant-model', 'Assistant with a model (loopback stand-in)', async () => {
    const { benchAssistantModel } = await import('./bench/assistant-model.mjs');
    await benchAssistantModel();
  });
} catch (e) {
  // The main server did not start: print what was measured so far, with the reason.
  notMeasured('Orrery server start', e.message);
  process.exitCode = 1;
} finally {
  await tidy();
}
printTable();
