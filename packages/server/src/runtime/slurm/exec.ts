import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { childSession } from '../child.js';
import type { ExecOptions, ExecSession } from '../driver.js';
import { NSENTER, SETPRIV } from '../process/launch.js';
import { WORKER_ENDED } from './gang-script.js';
import { JOB_FILES, quote, sandboxPid } from './script.js';

/**
 * A command in a running Slurm job (docs/runtimes.md "Exec on Slurm"): a step of the job's own
 * allocation on the node where the job (or the chosen worker) runs, `srun --overlap`, which then
 * enters the job's sandbox as the process runtime's exec does. The step runs as the service user
 * in the job's cgroup, so what the command uses counts as the job's. Only Slurm's commands start a
 * step with its input and output relayed: slurmrestd 22.05 has no such call.
 */

/**
 * Run on the node, as `sh -c ENTER orrery-exec <dir> <command…>`: finds the sandbox of the job
 * (or worker) whose directory is `<dir>` (bwrap's `sandbox.json`: its first process; the
 * command is that process's child), loads the command's environment, enters its namespaces
 * (`--user --preserve-credentials`: the service user owns them) and drops every capability
 * before running the command in its working directory. perl, which Debian always has, sets the
 * environment from `/proc/<pid>/environ`, which sh cannot split on NUL bytes.
 */
export const ENTER = [
  'dir=$1; shift',
  `pid=$(${sandboxPid('"$dir/sandbox.json"')})`,
  `if [ -z "$pid" ] || ! [ -e "$dir/${JOB_FILES.started}" ] || [ -e "$dir/${JOB_FILES.exit}" ] || [ -e "$dir/${WORKER_ENDED}" ]; then`,
  '  echo "orrery: the job has no process to exec in" >&2; exit 125',
  'fi',
  // A gang worker's network belongs to the user namespace made around bwrap (gang-script.ts),
  // the parent of bwrap's own: entered first, with the network, then bwrap's from there.
  `outer=$(sed -n 's/^PPid:[[:space:]]*//p' /proc/$pid/status 2>/dev/null)`,
  'hop=; net=--net',
  'if [ -n "$outer" ] && [ "$(readlink /proc/$outer/ns/user)" != "$(readlink /proc/self/ns/user)" ]; then',
  `  hop="${NSENTER} --preserve-credentials --user=/proc/$outer/ns/user --net=/proc/$outer/ns/net --"; net=`,
  'fi',
  'for child in $(cat /proc/$pid/task/$pid/children 2>/dev/null); do pid=$child; break; done',
  `exec /usr/bin/perl -e ${quote(
    [
      'open(my $f, "<", "/proc/$ARGV[0]/environ") or die "orrery: the job has no process to exec in\\n";',
      'local $/; my $all = <$f>;',
      '%ENV = map { /^([^=]*)=(.*)$/s ? ($1, $2) : () } split /\\0/, $all;',
      'shift; exec { $ARGV[0] } @ARGV; print STDERR "orrery: $ARGV[0]: $!\\n"; exit 127;',
    ].join(' '),
  )} "$pid" $hop ${NSENTER} --target="$pid" --user --preserve-credentials \\`,
  `  --mount --pid --ipc $net --uts --wd -- ${SETPRIV} --bounding-set=-all --inh-caps=-all --no-new-privs -- "$@"`,
].join('\n');

/** Where a step is started: Slurm's job id, and the node of the job (or of its chosen worker). */
export interface StepTarget {
  slurmId: number;
  node: string;
  /** The job's directory, or a gang worker's: the sandbox's files are there. */
  dir: string;
}

/** The node the job's (or worker's) script wrote; null before it runs there. */
export async function stepTarget(slurmId: number, dir: string): Promise<StepTarget | null> {
  const node = (await readFile(join(dir, JOB_FILES.node), 'utf8').catch(() => '')).trim();
  return node ? { slurmId, node, dir } : null;
}

/** `srun`'s arguments for a command in the target's sandbox (ENTER), as a step of its job. */
export function stepArgs(t: StepTarget, o: ExecOptions): string[] {
  return [
    '--overlap',
    `--jobid=${t.slurmId}`,
    `--nodelist=${t.node}`,
    '--nodes=1',
    '--ntasks=1',
    // The step shares what the job holds: its memory too, which the workers' step may hold whole.
    '--mem=0',
    `--chdir=${t.dir}`,
    `--input=${o.stdin ? '0' : 'none'}`,
    '--quiet',
    '/bin/sh',
    '-c',
    ENTER,
    'orrery-exec',
    t.dir,
    ...o.command,
  ];
}

/** Why a server that reaches Slurm through slurmrestd runs no command in a job. */
export const EXEC_NEEDS_COMMANDS =
  'A command in a Slurm job runs as a step of it, started with srun: this server reaches Slurm through slurmrestd (ORRERY_SLURM_API=rest), which starts none';

/** Starts `srun` with these arguments as the service user: the session relays its streams. */
export function startStep(
  args: string[],
  o: { stdin: boolean; uid?: number; gid?: number; env: NodeJS.ProcessEnv },
): ExecSession {
  const session = childSession(
    spawn('srun', args, {
      env: o.env,
      uid: o.uid,
      gid: o.gid,
      stdio: [o.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    }),
  );
  return { ...session, stderr: session.stderr!.pipe(withoutTaskExit()) };
}

/**
 * srun says a task's non-zero exit on its stderr, `--quiet` or not (twice quiet, it says none of
 * its errors either, a step it could not start among them): the exit code already says it, so
 * that line alone is taken out of the command's error output. srun writes it whole, last.
 */
const TASK_EXIT = /^srun: error: [^:\n]+: task \d+: Exited with exit code \d+\n/gm;

export function withoutTaskExit() {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const text = chunk.toString('latin1');
      const kept = text.replace(TASK_EXIT, '');
      done(null, kept.length === text.length ? chunk : Buffer.from(kept, 'latin1'));
    },
  });
}
