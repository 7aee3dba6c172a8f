import type { ExecSession } from '../driver.js';

/**
 * What the slurm driver asks of Slurm, answered by its commands (commands.ts) or by slurmrestd
 * (rest.ts). Both speak openapi v0.0.38 JSON (squeue/sinfo --json and the REST daemon alike), so
 * the parsing lives here once.
 */

/** One job as Slurm reports it (the fields the driver reads). */
export interface SlurmJob {
  id: number;
  name: string;
  user: string;
  /** PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, OUT_OF_MEMORY, NODE_FAIL… */
  state: string;
  /** Why it waits or ended (Resources, Priority, NonZeroExitCode…). */
  reason: string;
  /** A raw wait status: exit 3 is 768; a signal is in the low 7 bits. */
  exitCode: number;
  /** Epoch seconds; 0 when not yet. */
  startTime: number;
  endTime: number;
  /** The node its batch script runs on. */
  batchHost: string;
  /** How often Slurm requeued it (its node failed): slurmrestd 22.05 ignores `requeue: false`. */
  restarts: number;
  /** CPUs it holds (or asks for, pending), over all its nodes. */
  cpus: number;
  /** What it holds on each of its nodes once it started: memory in MB. */
  allocated: Array<{ node: string; memoryMb: number }>;
  /** The GRES it holds on each node, in the order of `allocated`: `gpu:fake:1(IDX:0)`. */
  gres: string[];
}

export interface SlurmNode {
  name: string;
  /** NodeAddr: where the server reaches jobs on it. */
  address: string;
  /** The base state in lower case: idle, mixed, allocated, down, drained… */
  state: string;
  /** What the base state leaves out, as Slurm spells it: DRAIN, NOT_RESPONDING… */
  stateFlags: string[];
  /** Why it is down or drained (`scontrol update … reason=`); '' when none. */
  reason: string;
  cpus: number;
  /** MB. */
  realMemory: number;
  /** MB allocated to jobs. */
  allocMemory: number;
  allocCpus: number;
  /** e.g. `gpu:fake:2`. */
  gres: string;
  /** The GRES jobs hold, e.g. `gpu:fake:1(IDX:0)`. */
  gresUsed: string;
  partitions: string[];
}

/** What start() hands to Slurm. */
export interface Submission {
  name: string;
  script: string;
  /** Absolute; the job's stdout and stderr, merged. */
  output: string;
  workdir: string;
  /** Per node (a gang's worker). */
  cpus: number;
  /** Per node. */
  memoryMb: number;
  /** A gang's workers: this many nodes, one task on each; absent, one. */
  nodes?: number;
  /** e.g. `gpu:fake:1`. */
  gres?: string;
  partition?: string;
  timeMinutes?: number;
}

export interface SlurmClient {
  /** Returns Slurm's job id. */
  submit(s: Submission): Promise<number>;
  /** Every job slurmctld still holds (finished ones for MinJobAge). */
  jobs(): Promise<SlurmJob[]>;
  /** Null when slurmctld does not know the id (never, or no longer). */
  job(id: number): Promise<SlurmJob | null>;
  /** SIGTERM (or `signal`) to every process of the job, the batch shell's included (`scancel --full`). */
  terminate(id: number, signal?: 'TERM' | 'USR2'): Promise<void>;
  /** Ends the job (what is left gets SIGKILL after KillWait). */
  cancel(id: number): Promise<void>;
  /** Every node with its partitions, shape, state and what jobs hold (capacity.ts). */
  nodes(): Promise<SlurmNode[]>;
  /**
   * Starts `srun` with these arguments (a step of a running job, exec.ts), its input and output
   * relayed; absent where the server has no Slurm commands to run (slurmrestd).
   */
  step?(args: string[], stdin: boolean): ExecSession;
}

/** slurmctld (or slurmrestd) could not be reached: say nothing about the jobs, keep their state. */
export class SlurmUnreachable extends Error {}

/** A job id that slurmctld does not know: `squeue` and slurmrestd both say so in these words. */
export const UNKNOWN_JOB = /Invalid job id specified/i;
/** The words of a controller that does not answer, in the commands' stderr and REST errors. */
export const NO_CONTROLLER =
  /Unable to contact slurm controller|Communication connection failure|Connection refused|Socket timed out/i;

type Json = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const strings = (v: unknown) => (Array.isArray(v) ? v.map(str) : []);

export function parseJob(j: Json): SlurmJob {
  return {
    id: num(j.job_id),
    name: str(j.name),
    user: str(j.user_name),
    state: str(j.job_state),
    reason: str(j.state_reason),
    exitCode: num(j.exit_code),
    startTime: num(j.start_time),
    endTime: num(j.end_time),
    batchHost: str(j.batch_host),
    restarts: num(j.restart_cnt),
    cpus: num(j.cpus),
    allocated: allocatedNodes(j.job_resources),
    gres: strings(j.gres_detail),
  };
}

/** `job_resources.allocated_nodes`: a list in 22.05's answers, an object keyed by index in some. */
function allocatedNodes(resources: unknown): SlurmJob['allocated'] {
  const nodes = (resources as { allocated_nodes?: unknown } | null)?.allocated_nodes;
  const list = Array.isArray(nodes)
    ? nodes
    : nodes && typeof nodes === 'object'
      ? Object.values(nodes)
      : [];
  return (list as Json[]).map((n) => ({
    node: str(n.nodename),
    memoryMb: num(n.memory_allocated),
  }));
}

export function parseNode(n: Json): SlurmNode {
  return {
    name: str(n.name),
    address: str(n.address) || str(n.hostname) || str(n.name),
    state: str(n.state).toLowerCase(),
    stateFlags: strings(n.state_flags),
    reason: str(n.reason),
    cpus: num(n.cpus),
    realMemory: num(n.real_memory),
    allocMemory: num(n.alloc_memory),
    allocCpus: num(n.alloc_cpus),
    gres: str(n.gres),
    gresUsed: str(n.gres_used),
    partitions: strings(n.partitions),
  };
}

/**
 * The errors an openapi answer carries (squeue --json exits 0 with them): a controller that does
 * not answer shows as `Unspecified error` (-1) from slurm_load_jobs or in Slurm's own words.
 */
export function checkAnswer(body: unknown, what: string): void {
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors) || errors.length === 0) return;
  const list = errors as Array<{
    error?: string;
    description?: string;
    error_number?: number;
    errno?: number;
  }>;
  const text = `${what}: ${list.map((e) => [e.description, e.error].filter(Boolean).join(': ')).join('; ')}`;
  const down = list.some((e) => (e.error_number ?? e.errno) === -1) || NO_CONTROLLER.test(text);
  throw down && !UNKNOWN_JOB.test(text) ? new SlurmUnreachable(text) : new Error(text);
}

/** The jobs of a `{"jobs": […]}` answer. */
export function jobsOf(body: unknown): SlurmJob[] {
  checkAnswer(body, 'Slurm jobs');
  const jobs = (body as { jobs?: unknown }).jobs;
  return Array.isArray(jobs) ? jobs.map((j) => parseJob(j as Json)) : [];
}

export function nodesOf(body: unknown): SlurmNode[] {
  checkAnswer(body, 'Slurm nodes');
  const nodes = (body as { nodes?: unknown }).nodes;
  return Array.isArray(nodes) ? nodes.map((n) => parseNode(n as Json)) : [];
}
