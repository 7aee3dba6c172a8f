import { runCommand } from '../child.js';
import {
  jobsOf,
  NO_CONTROLLER,
  nodesOf,
  SlurmUnreachable,
  type SlurmClient,
  type SlurmJob,
  type Submission,
} from './client.js';
import type { ExecSession } from '../driver.js';
import { startStep } from './exec.js';
import { passwdIds } from './options.js';

/** Slurm's commands, run as the service user (never root: root's jobs would run as root). */
export class CommandsClient implements SlurmClient {
  private readonly ids: { uid?: number; gid?: number };

  constructor(
    user: string,
    private readonly conf?: string,
  ) {
    this.ids = asUser(user);
  }

  async submit(s: Submission): Promise<number> {
    const args = ['--parsable', `--job-name=${s.name}`, `--output=${s.output}`];
    args.push(`--chdir=${s.workdir}`, `--cpus-per-task=${s.cpus}`, `--mem=${s.memoryMb}M`);
    // The script sets the job's whole environment; the server's own stays out of it, as run()
    // gives sbatch only PATH and SLURM_CONF to export. Not `--export=NONE` (nor NIL): with it
    // slurmd loads the service user's login environment at each launch, which a nologin user
    // without a home fails, logging an error and sometimes taking a second longer.
    args.push('--export=ALL', '--kill-on-invalid-dep=yes', '--no-requeue');
    if (s.nodes) args.push(`--nodes=${s.nodes}`, '--ntasks-per-node=1');
    if (s.gres) args.push(`--gres=${s.gres}`);
    if (s.partition) args.push(`--partition=${s.partition}`);
    if (s.timeMinutes) args.push(`--time=${s.timeMinutes}`);
    const out = await this.run('sbatch', args, s.script);
    // --parsable prints `id` or `id;cluster`.
    const id = parseInt(out, 10);
    if (!Number.isFinite(id)) throw new Error(`sbatch answered ${out.trim()}`);
    return id;
  }

  async jobs(): Promise<SlurmJob[]> {
    return jobsOf(JSON.parse(await this.run('squeue', ['--json'])));
  }

  async job(id: number): Promise<SlurmJob | null> {
    // 22.05's `squeue --json` lists every job whatever the filter; an id it lacks is unknown.
    return (await this.jobs()).find((j) => j.id === id) ?? null;
  }

  async terminate(id: number, signal: 'TERM' | 'USR2' = 'TERM'): Promise<void> {
    await this.scancel(['--full', `--signal=${signal}`, String(id)]);
  }

  async cancel(id: number): Promise<void> {
    await this.scancel([String(id)]);
  }

  async nodes() {
    return nodesOf(JSON.parse(await this.run('sinfo', ['--json'])));
  }

  private async scancel(args: string[]) {
    try {
      await this.run('scancel', args);
    } catch (e) {
      // Already gone: nothing left to stop.
      if (e instanceof Error && /already completing or completed|Invalid job id/i.test(e.message))
        return;
      throw e;
    }
  }

  /** A step of a running job (exec.ts): srun as the service user, its streams relayed. */
  step(args: string[], stdin: boolean): ExecSession {
    return startStep(args, { stdin, ...this.ids, env: this.env() });
  }

  private env() {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...(this.conf ? { SLURM_CONF: this.conf } : {}),
    };
  }

  private async run(command: string, args: string[], input?: string): Promise<string> {
    const env = this.env();
    try {
      return (await runCommand(command, args, { env, ...this.ids, timeout: 30_000, input })).stdout;
    } catch (e) {
      // A command that exits before reading its input (a squeue or sbatch that could not reach
      // slurmctld, say) fails the call; it never reaches the server's event loop.
      const text = e instanceof Error ? e.message : String(e);
      throw NO_CONTROLLER.test(text) ? new SlurmUnreachable(text) : new Error(text);
    }
  }
}

/**
 * The uid and gid to run the commands with: the user's own when the server is root, nothing to
 * change when the server already runs as that user; refused otherwise (Slurm would submit as
 * the server's user).
 */
function asUser(user: string): { uid?: number; gid?: number } {
  const { uid, gid } = passwdIds(user);
  const self = process.getuid?.();
  if (self === uid) return {};
  if (self !== 0) {
    throw new Error(`ORRERY_SLURM_USER=${user}: the server must run as root or as ${user}`);
  }
  return { uid, gid };
}
