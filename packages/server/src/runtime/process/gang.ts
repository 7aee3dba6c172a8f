import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gangEnv, type JobSpec, type ObservedState } from '../driver.js';
import { freePort } from '../../net/ports.js';
import { readNumber } from './exit.js';

/**
 * A job of several workers on the process runtime (docs/jobs.md "Distributed jobs"): each worker
 * a job of its own to the rest of the driver (its sandbox, uid, cgroups and state in
 * `<root>/<id>.w<rank>/`), all writing the gang's one log (`<root>/<id>/output`), and observed,
 * stopped and removed together under the gang's id. Sandboxed, rank 0 makes the job's network
 * namespace (with its slirp4netns network) and the others join it before their own sandboxes are
 * made: the workers reach each other on 127.0.0.1 and any port, and nothing else that a single
 * job could not reach.
 */

/** What a worker is told beside its job spec: whose worker it is and which network it joins. */
export interface WorkerPlan {
  /** The gang's id, which state changes are announced under. */
  gang: string;
  rank: number;
  /** The gang's log, which every worker appends to. */
  output: string;
  /** The sandbox process of rank 0, whose network namespace the worker joins. */
  joinNetOf?: number;
  /** Every worker's host name (its id), which all resolve to 127.0.0.1 in the shared network. */
  peers: string[];
}

/** What the gang needs of the driver's single-job machinery. */
export interface GangHost {
  root: string;
  sandboxed: boolean;
  /** Starts one worker; `settled` resolves once its sandbox (and network) is up. */
  launch(spec: JobSpec, plan: WorkerPlan): Promise<{ settled: Promise<void> }>;
  observeOne(id: string): Promise<ObservedState>;
  killOne(id: string): Promise<void>;
  removeOne(id: string): Promise<void>;
}

interface GangRecord {
  workers: number;
  createdAt: number;
}

/** The rendezvous port of PyTorch's examples, free in a network namespace made for the job. */
const RENDEZVOUS_PORT = 29500;
/** A worker that has not appeared this long after the gang's start is lost, not starting. */
const START_GRACE_MS = 10_000;

export const workerId = (gang: string, rank: number) => `${gang}.w${rank}`;
export const isWorkerId = (id: string) => /\.w\d+$/.test(id);

export class Gangs {
  /** Gangs whose remaining workers are being stopped after one failed. */
  private readonly stopping = new Set<string>();

  constructor(private readonly host: GangHost) {}

  private dir(id: string) {
    return join(this.host.root, id);
  }

  /** Whether `id` is a gang (its record is there). */
  is(id: string): boolean {
    return existsSync(join(this.dir(id), 'gang.json'));
  }

  private async record(id: string): Promise<GangRecord | null> {
    const text = await readFile(join(this.dir(id), 'gang.json'), 'utf8').catch(() => null);
    return text ? (JSON.parse(text) as GangRecord) : null;
  }

  /** The ids of the workers whose logs the job has (also once removed); none for one worker. */
  async logged(id: string): Promise<string[]> {
    const n = (await readNumber(join(this.dir(id), 'workers')))?.value ?? 0;
    return [...Array(n).keys()].map((r) => workerId(id, r));
  }

  /** The ids of the job's workers in rank order: the job itself unless it is a gang. */
  async members(id: string): Promise<string[]> {
    const g = this.is(id) ? await this.record(id) : null;
    return g ? [...Array(g.workers).keys()].map((r) => workerId(id, r)) : [id];
  }

  /**
   * Starts the workers: rank 0 first, the others once its network namespace is up (they join
   * it). A worker that cannot start stops the ones started before it.
   */
  async start(spec: JobSpec): Promise<void> {
    const workers = spec.workers ?? 1;
    const dir = this.dir(spec.id);
    const state = await this.observe(spec.id);
    if (state.state === 'running' || state.state === 'starting') {
      throw new Error(`Job ${spec.id} is already running`);
    }
    await mkdir(dir, { recursive: true });
    await rm(join(dir, 'gang.json'), { force: true });
    const record: GangRecord = { workers, createdAt: Date.now() };
    await writeFile(join(dir, 'gang.json'), JSON.stringify(record));
    // Kept after the gang is removed, for its workers' logs.
    await writeFile(join(dir, 'workers'), String(workers));
    // Sandboxed, the network is the job's own; otherwise it is the host's, where a free one is
    // found.
    const fixed = spec.httpPort === RENDEZVOUS_PORT ? RENDEZVOUS_PORT + 1 : RENDEZVOUS_PORT;
    const port = this.host.sandboxed ? fixed : await freePort();
    const rendezvous = { address: '127.0.0.1', port };
    const output = join(dir, 'output');
    const peers = [...Array(workers).keys()].map((r) => workerId(spec.id, r));
    const worker = (rank: number): JobSpec => ({
      ...spec,
      id: workerId(spec.id, rank),
      workers: undefined,
      // Rank 0 serves the job's HTTP port, if it has one.
      httpPort: rank === 0 ? spec.httpPort : undefined,
      env: { ...spec.env, ...gangEnv(rank, workers, rendezvous) },
    });
    try {
      const first = await this.host.launch(worker(0), { gang: spec.id, rank: 0, output, peers });
      await first.settled;
      const pid = this.host.sandboxed ? await this.sandboxOf(spec.id) : undefined;
      const launch = (rank: number) =>
        this.host.launch(worker(rank), { gang: spec.id, rank, output, peers, joinNetOf: pid });
      const ranks = [...Array(workers - 1).keys()].map((i) => i + 1);
      // Side by side, but one after another with GPUs: each worker takes the lowest ones the
      // workers launched before it left free.
      const started: PromiseSettledResult<unknown>[] = [];
      if (!spec.limits.gpu?.count) started.push(...(await Promise.allSettled(ranks.map(launch))));
      else for (const r of ranks) started.push(...(await Promise.allSettled([launch(r)])));
      const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason as Error;
    } catch (e) {
      await this.kill(spec.id);
      throw e;
    }
  }

  /** Rank 0's sandbox process, or why the gang cannot go on without it. */
  private async sandboxOf(id: string): Promise<number> {
    const first = join(this.host.root, workerId(id, 0));
    const failure = await readFile(join(first, 'failure'), 'utf8').catch(() => null);
    const pid = failure === null ? await readNumber(join(first, 'child.pid')) : null;
    if (pid) return pid.value;
    throw new Error(`Worker 0 could not start${failure ? `: ${failure}` : ''}`);
  }

  /**
   * The gang's state: starting until every worker runs, running while any does, and once all
   * have ended, failed with the first failure (its exit code, reason and worker) or succeeded.
   */
  async observe(id: string): Promise<ObservedState> {
    const g = await this.record(id);
    if (!g) return { state: 'missing' };
    const states = await Promise.all((await this.members(id)).map((w) => this.host.observeOne(w)));
    const young = Date.now() - g.createdAt < START_GRACE_MS;
    const live = (s: ObservedState) => s.state === 'running' || s.state === 'starting';
    const begun = (s: ObservedState) =>
      s.state === 'running' ? s.startedAt : s.state === 'exited' ? s.startedAt : undefined;
    const latest = (dates: (Date | undefined)[]) =>
      new Date(Math.max(...dates.map((d) => d?.getTime() ?? 0)));
    if (states.some(live) || (young && states.some((s) => s.state === 'missing'))) {
      const started = states.map(begun);
      // Running once every worker has run (the ones left may be stopping after a failure).
      return started.every(Boolean)
        ? { state: 'running', startedAt: latest(started) }
        : { state: 'starting' };
    }
    const ended = states.flatMap((s, rank) => (s.state === 'exited' ? [{ s, rank }] : []));
    if (ended.length === 0) return { state: 'missing' };
    const finishedAt = latest(ended.map((e) => e.s.finishedAt));
    const startedAt = states.every(begun) ? latest(states.map(begun)) : undefined;
    const failures = ended
      .filter((e) => e.s.exitCode !== 0)
      .sort((a, b) => a.s.finishedAt.getTime() - b.s.finishedAt.getTime());
    const lost = states.findIndex((s) => s.state === 'missing');
    if (failures.length === 0 && lost < 0) {
      return { state: 'exited', exitCode: 0, finishedAt, ...(startedAt ? { startedAt } : {}) };
    }
    const first = failures[0];
    const why = first
      ? `Worker ${first.rank} of ${g.workers} exited with code ${first.s.exitCode}${first.s.message ? ` (${first.s.message})` : ''}`
      : `Worker ${lost} of ${g.workers} was lost`;
    return {
      state: 'exited',
      exitCode: first?.s.exitCode ?? 1,
      finishedAt,
      ...(startedAt ? { startedAt } : {}),
      ...(first?.s.reason ? { reason: first.s.reason } : {}),
      message: `${why}; the other workers were stopped`,
    };
  }

  /**
   * Stops the workers left once one has failed (ended with a non-zero code, or was lost): a gang
   * is only useful whole. Called by the driver's poll; returns at once for a job that is not a
   * gang or has no failed worker.
   */
  async stopIfFailed(id: string): Promise<void> {
    if (this.stopping.has(id) || !this.is(id)) return;
    const g = await this.record(id);
    // Right after the start, a worker not there yet is starting, not lost.
    const young = !g || Date.now() - g.createdAt < START_GRACE_MS;
    const states = await Promise.all((await this.members(id)).map((w) => this.host.observeOne(w)));
    const failed = states.some(
      (s) => (s.state === 'exited' && s.exitCode !== 0) || (s.state === 'missing' && !young),
    );
    const live = states.some((s) => s.state === 'running' || s.state === 'starting');
    if (!failed || !live) return;
    this.stopping.add(id);
    try {
      await this.kill(id);
    } finally {
      this.stopping.delete(id);
    }
  }

  async kill(id: string): Promise<void> {
    await Promise.all((await this.members(id)).map((w) => this.host.killOne(w)));
  }

  /**
   * Every worker stopped (together), then each removed, then the gang's record; the logs (the
   * merged one, and each worker's) stay.
   */
  async remove(id: string): Promise<void> {
    await this.kill(id);
    for (const w of await this.members(id)) await this.host.removeOne(w);
    await rm(join(this.dir(id), 'gang.json'), { force: true });
  }
}
