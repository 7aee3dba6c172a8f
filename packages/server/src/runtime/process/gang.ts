import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { gangEnv, type ExecSession, type JobSpec, type ObservedState } from '../driver.js';
import { gangState, rendezvousPort } from '../gang.js';
import { freePort } from '../../net/ports.js';
import { readNumber } from './exit.js';
import { DEFAULT_PATH } from './record.js';
import { gangDir, mpiEnv, WorkerAgents, type GangTarget } from './worker-exec.js';

/**
 * A job of several workers on the process runtime (docs/jobs.md "Distributed jobs"): each worker
 * a job of its own to the rest of the driver (its sandbox, uid, cgroups and state in
 * `<root>/<id>.w<rank>/`), all writing the gang's one log (`<root>/<id>/output`), and observed,
 * stopped and removed together under the gang's id. Sandboxed, rank 0 makes the job's network
 * namespace (with its slirp4netns network) and the others join it before their own sandboxes are
 * made: the workers reach each other on 127.0.0.1 and any port, and nothing else that a single
 * job could not reach. The workers launch commands in each other through the gang's agent
 * (worker-exec.ts), for `mpirun`.
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
  /** The gang's directory (its hostfile and agent socket), bound into the worker's sandbox. */
  gangDir: string;
  /** What the worker's command waits for beside its sandbox (rank 0: every worker joined). */
  hold?: Promise<void>;
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
  /** A command in one worker (the driver's exec, with its stdin). */
  execOne(id: string, command: string[]): Promise<ExecSession>;
  /** The driver's change notices (a worker's, under its gang's id). */
  onChange(listener: (id: string) => void): () => void;
  /** The jobs group, when workers have uids of their own; whether the server is root. */
  access: { gid?: number; root: boolean };
}

interface GangRecord {
  workers: number;
  createdAt: number;
  /** What the workers give the agent's socket (worker-exec.ts). */
  token?: string;
}

/** A worker that has not appeared this long after the gang's start is lost, not starting. */
const START_GRACE_MS = 10_000;

export const workerId = (gang: string, rank: number) => `${gang}.w${rank}`;
export const isWorkerId = (id: string) => /\.w\d+$/.test(id);

export class Gangs {
  /** Gangs whose remaining workers are being stopped after one failed. */
  private readonly stopping = new Set<string>();
  private readonly agents: WorkerAgents;

  constructor(private readonly host: GangHost) {
    this.agents = new WorkerAgents(host.access);
  }

  private dir(id: string) {
    return join(this.host.root, id);
  }

  private runDir(id: string) {
    return gangDir(this.host.root, id, this.host.access.root);
  }

  /** What the gang's agent may reach: its own workers, by their host names. */
  private target(id: string, g: GangRecord): GangTarget {
    const hosts = [...Array(g.workers).keys()].map((r) => workerId(id, r));
    return {
      hosts,
      token: g.token ?? '',
      exec: (rank: number, command: string[]) => this.host.execOne(hosts[rank], command),
      firstEnded: async (abort: AbortSignal) => {
        const ended = async () => {
          const s = (await this.host.observeOne(hosts[0])).state;
          return s === 'exited' || s === 'missing';
        };
        // Woken by the driver's notices; rechecked each second in case one was missed.
        while (!abort.aborted && !(await ended())) {
          await new Promise<void>((resolve) => {
            const done = () => {
              clearTimeout(timer);
              off();
              abort.removeEventListener('abort', done);
              resolve();
            };
            const timer = setTimeout(done, 1000);
            const off = this.host.onChange((changed) => changed === id && done());
            abort.addEventListener('abort', done);
          });
        }
      },
    };
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

  /** One worker's id (rank 0's by default), or the job's own for a job of one. */
  async member(id: string, worker = 0): Promise<string> {
    const members = await this.members(id);
    if (!members[worker]) throw new Error(`Job ${id} has ${members.length} workers`);
    return members[worker];
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
    const token = randomBytes(24).toString('hex');
    const record: GangRecord = { workers, createdAt: Date.now(), token };
    await writeFile(join(dir, 'gang.json'), JSON.stringify(record));
    // Kept after the gang is removed, for its workers' logs.
    await writeFile(join(dir, 'workers'), String(workers));
    // Sandboxed, the network is the job's own; otherwise it is the host's, where a free one is
    // found.
    const port = this.host.sandboxed ? rendezvousPort(spec.httpPort) : await freePort();
    const rendezvous = { address: '127.0.0.1', port };
    const output = join(dir, 'output');
    const peers = [...Array(workers).keys()].map((r) => workerId(spec.id, r));
    const run = this.runDir(spec.id);
    const mpi = mpiEnv({
      dir: run,
      sandboxed: this.host.sandboxed,
      token,
      path: spec.env.PATH ?? DEFAULT_PATH,
    });
    const worker = (rank: number): JobSpec => ({
      ...spec,
      id: workerId(spec.id, rank),
      workers: undefined,
      // Rank 0 serves the job's HTTP port, if it has one.
      httpPort: rank === 0 ? spec.httpPort : undefined,
      env: { ...spec.env, ...mpi, ...gangEnv(rank, workers, rendezvous) },
    });
    const plan = { gang: spec.id, output, peers, gangDir: run };
    // Rank 0's command starts once every worker has joined its network namespace: one that
    // ended at once would take the namespace with it, and the others could not join.
    let joined!: () => void;
    const hold = new Promise<void>((resolve) => (joined = resolve));
    try {
      await this.agents.open(run, spec.id, this.target(spec.id, record));
      const first = await this.host.launch(worker(0), { ...plan, rank: 0, hold });
      await first.settled;
      const pid = this.host.sandboxed ? await this.sandboxOf(spec.id) : undefined;
      const launch = async (rank: number) => {
        const w = await this.host.launch(worker(rank), { ...plan, rank, joinNetOf: pid });
        await w.settled;
      };
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
      await this.agents.close(spec.id, run);
      throw e;
    } finally {
      joined();
    }
  }

  /** Serves the agents of the gangs a previous server left running. */
  async reopen(ids: string[]): Promise<void> {
    for (const id of ids) {
      const g = this.is(id) ? await this.record(id) : null;
      const s = g?.token ? (await this.observe(id)).state : null;
      if (g && (s === 'running' || s === 'starting')) {
        await this.agents.open(this.runDir(id), id, this.target(id, g)).catch(() => undefined);
      }
    }
  }

  /**
   * The driver's poll of a gang: each worker's log stamped (`stamp`), the others stopped when
   * one failed, the agent closed once the gang has ended.
   */
  async poll(id: string, finished: boolean, stamp: (worker: string) => Promise<void>) {
    if (!this.is(id)) return;
    for (const w of await this.members(id)) await stamp(w);
    // Not awaited: stopping a failed gang's other workers takes their kill grace.
    if (!finished) void this.stopIfFailed(id);
    else await this.agents.close(id, this.runDir(id));
  }

  close(): Promise<void> {
    return this.agents.closeAll();
  }

  /** Rank 0's sandbox process, or why the gang cannot go on without it. */
  private async sandboxOf(id: string): Promise<number> {
    const first = join(this.host.root, workerId(id, 0));
    const failure = await readFile(join(first, 'failure'), 'utf8').catch(() => null);
    const pid = failure === null ? await readNumber(join(first, 'child.pid')) : null;
    if (pid) return pid.value;
    throw new Error(`Worker 0 could not start${failure ? `: ${failure}` : ''}`);
  }

  /** The gang's state (runtime/gang.ts `gangState`), a worker not yet there at first starting. */
  async observe(id: string): Promise<ObservedState> {
    const g = await this.record(id);
    if (!g) return { state: 'missing' };
    const states = await Promise.all((await this.members(id)).map((w) => this.host.observeOne(w)));
    return gangState(states, Date.now() - g.createdAt < START_GRACE_MS);
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
    await this.agents.close(id, this.runDir(id));
    await rm(join(this.dir(id), 'gang.json'), { force: true });
  }
}
