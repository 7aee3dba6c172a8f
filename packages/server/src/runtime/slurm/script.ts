import type { JobSpec } from '../driver.js';
import { appRuntimeEnv } from '../process/app-runtime.js';
import { BWRAP } from '../process/sandbox.js';

/** A word for sh, inside single quotes. */
export const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export const PASTA = '/usr/bin/pasta';
export const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** Restores the SIGTERM the script ignores, for the job's own command. */
export const SHELL = '/usr/bin/env --default-signal=TERM,INT,QUIT /bin/sh -c';
/** Host ports tried for the job's HTTP port: a busy one makes pasta fail, and the next is tried. */
export const FORWARD_PORTS = { first: 30000, count: 30000, tries: 10 };

/**
 * The signal of a kill's second stage: the script answers it with SIGKILL to the whole sandbox.
 * Not SIGKILL itself: Slurm takes `scancel --signal=KILL` for a cancel, which sends SIGTERM and
 * SIGKILL only at its KillWait.
 */
export const KILL_SIGNAL = 'USR2';

/** A command printing the pid of the sandbox's first process, from bwrap's info in `file`. */
export const sandboxPid = (file: string) =>
  `sed -n 's/.*"child-pid": *\\([0-9]*\\).*/\\1/p' ${file} 2>/dev/null`;

/** Files the script writes in the job's directory, read by the driver. */
export const JOB_FILES = {
  exit: 'exit',
  /** The node's port forwarded to the job's HTTP port. */
  port: 'port',
  /** Made once the job listens on its HTTP port inside its network. */
  listening: 'listening',
  /** The job's last load sample: `<ms since epoch> <CPU ns used> <memory bytes>` (stats.ts). */
  stats: 'stats',
  /** Made as the command is released: the job runs from then on (its mtime is its start). */
  started: 'started',
  /** Made by the server's kill: a script that finds it never starts the command. */
  killed: 'killed',
  /** The node the job (or a gang's worker) runs on: where an exec's step goes (exec.ts). */
  node: 'node',
} as const;

export interface BatchPlan {
  spec: JobSpec;
  /** `<shared>/jobs/<id>`: the script runs there and writes JOB_FILES there. */
  jobDir: string;
  command: string;
  /** bwrap's arguments before the command (process/sandbox.ts bwrapArgs, batch mode). */
  sandbox: string[];
  /** Each node's address as the server reaches it: where the HTTP port is forwarded. */
  nodeAddresses: Record<string, string>;
}

/**
 * The batch script Slurm runs on the node, as the service user. It starts the job's command in
 * the process runtime's bwrap sandbox, held until pasta has given the sandbox's network namespace
 * a network of its own (outbound NAT; no way to the node's loopback, `-T none`, nor to the
 * gateway, `--no-map-gw`) and, for a job with an HTTP port, a forward from a free port of the
 * node's address, which it writes to `port`. Two jobs on one node then listen on the same port
 * without colliding, and a job reaches no service of the node's loopback. A node without bwrap or
 * pasta runs nothing. The script ignores SIGTERM (`scancel --full` signals every process of the
 * job) so that it lives to write `exit`, for when slurmctld has forgotten the job; the command
 * gets SIGTERM back.
 */
export function batchScript(p: BatchPlan): string {
  const env = envLines(p.spec);
  const f = JOB_FILES;
  return [
    '#!/bin/sh',
    `# Orrery job ${p.spec.id}, submitted by the server's slurm runtime.`,
    "trap '' TERM",
    `cd ${quote(p.jobDir)} || exit 125`,
    `finish() { echo $1 > ${f.exit}.tmp && mv ${f.exit}.tmp ${f.exit}; exit $1; }`,
    // The kill's second stage: the sandbox's first process is its PID namespace's init, so
    // SIGKILL to it ends every process of the command, whatever it traps.
    'pid=; sandbox=',
    `stop() { kill -KILL $pid $sandbox 2>/dev/null; [ -s pasta.pid ] && kill -KILL $(cat pasta.pid) 2>/dev/null; finish 137; }`,
    `trap stop ${KILL_SIGNAL}`,
    // Killed while Slurm was still launching it, before any signal could reach it.
    `[ -e ${f.killed} ] && finish 143`,
    `echo "$SLURMD_NODENAME" > ${f.node}`,
    `for tool in ${BWRAP} ${PASTA}; do`,
    '  [ -x $tool ] && continue',
    `  echo "orrery: this node has no $tool, which the job's sandbox needs" >&2`,
    '  finish 125',
    'done',
    ...env,
    'rm -f sandbox.json release pasta.pid',
    // bwrap and its first process ignore the TERM this script ignores; without a network the
    // sandbox is killed before it is released, and the job fails with 125 as one that never ran.
    'failed=',
    'abort() { echo "orrery: $1 (see net.log)" >&2; failed=125; kill -KILL $pid $sandbox 2>/dev/null; }',
    'mkfifo release && exec 5<>release || finish 125',
    `${BWRAP} ${p.sandbox.map(quote).join(' ')} -- ${SHELL} ${quote(p.command)} 3>sandbox.json 4<&5 5<&- &`,
    'sandbox=$!',
    'until grep -qs child-pid sandbox.json; do',
    '  kill -0 $sandbox 2>/dev/null || break',
    '  sleep 0.02',
    'done',
    `pid=$(${sandboxPid('sandbox.json')})`,
    'network() {',
    `  ${PASTA} --config-net --no-map-gw -T none -U none -u none -t "$1" -P pasta.pid -l net.log -q \\`,
    '    --userns /proc/$pid/ns/user --netns /proc/$pid/ns/net',
    '}',
    // No pid: bwrap failed, and said why in the log.
    'if [ -n "$pid" ]; then',
    ...(p.spec.httpPort
      ? forward(p)
      : ["network none || abort 'pasta could not give the job its network'"]
    ).map((l) => `  ${l}`),
    'fi',
    // The command starts now, with its network up (or bwrap fails, saying why, in the log),
    // unless a kill came during the set-up: then the sandbox goes without running it.
    `if [ -e ${f.killed} ]; then kill -KILL $pid $sandbox 2>/dev/null; failed=143; fi`,
    `[ -z "$failed" ] && : > ${f.started}`,
    'echo >&5; exec 5>&-',
    ...sampler(),
    'wait $sandbox',
    'code=$?',
    '[ -n "$failed" ] && code=$failed',
    '[ -s pasta.pid ] && kill $(cat pasta.pid) 2>/dev/null',
    'finish $code',
    '',
  ].join('\n');
}

/**
 * The job's environment as `export` lines: as on the process runtime, Orrery's app programs where
 * the sandbox shows them, and the HTTP port as PORT.
 */
export function envLines(spec: JobSpec): string[] {
  return Object.entries({
    PATH,
    HOME: '/tmp',
    ...appRuntimeEnv(true),
    ...spec.env,
    ...(spec.httpPort ? { PORT: String(spec.httpPort) } : {}),
  })
    .filter(([k]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k))
    .map(([k, v]) => `export ${k}=${quote(v)}`);
}

/** Tries free ports of the node's address for the HTTP port, then watches for the job to listen. */
function forward(p: BatchPlan): string[] {
  const port = p.spec.httpPort!;
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const nodes = Object.entries(p.nodeAddresses).map(
    ([name, address]) => `  ${quote(name)}) address=${quote(address)} ;;`,
  );
  const { first, count, tries } = FORWARD_PORTS;
  const f = JOB_FILES;
  return [
    'case "$SLURMD_NODENAME" in',
    ...nodes,
    '  *) address=0.0.0.0 ;;',
    'esac',
    'forwarded=',
    `for try in ${[...Array(tries).keys()].map((i) => i + 1).join(' ')}; do`,
    `  host=$(( $(od -An -N2 -tu2 /dev/urandom) % ${count} + ${first} ))`,
    `  if network "$address/$host:${port}"; then forwarded=$host; break; fi`,
    'done',
    'if [ -n "$forwarded" ]; then',
    `  echo $forwarded > ${f.port}.tmp && mv ${f.port}.tmp ${f.port}`,
    // From the job's own sockets table: the forward accepts before the job listens.
    '  (while kill -0 $sandbox 2>/dev/null; do',
    `    if grep -qs ':${hex} [0-9A-F:]* 0A ' /proc/$pid/net/tcp /proc/$pid/net/tcp6; then`,
    `      : > ${f.listening}; break`,
    '    fi',
    '    sleep 0.25',
    '  done) &',
    'else',
    `  abort "no free port on this node for the job's HTTP port ${port}"`,
    'fi',
  ];
}

/**
 * Writes the job's load to `stats` each second from its cgroups, which only the node can read:
 * live stats for the server wherever the job landed. cgroup v1 (`memory` and `cpuacct`, as
 * Debian's slurmd makes them) or v2 (`memory.current`, `cpu.stat`); the job's level is the
 * batch step's parent.
 */
export function sampler(): string[] {
  const f = JOB_FILES;
  return [
    '(',
    '  m=; c=; u=',
    '  while IFS=: read -r n ctl path; do',
    '    case ",$ctl," in *,memory,*) m=$path ;; esac',
    '    case ",$ctl," in *,cpuacct,*) c=$path ;; esac',
    '    [ -z "$ctl" ] && u=$path',
    '  done < /proc/self/cgroup',
    '  while kill -0 $sandbox; do',
    '    if [ -n "$m" ]; then',
    '      read mem < "/sys/fs/cgroup/memory${m%/step_*}/memory.usage_in_bytes"',
    '      read cpu < "/sys/fs/cgroup/cpuacct${c%/step_*}/cpuacct.usage"',
    '    else',
    '      read mem < "/sys/fs/cgroup${u%/step_*}/memory.current"',
    `      cpu=$(sed -n 's/^usage_usec //p' "/sys/fs/cgroup\${u%/step_*}/cpu.stat")000`,
    '    fi',
    `    echo "$(date +%s%3N) $cpu $mem" > ${f.stats}.tmp && mv ${f.stats}.tmp ${f.stats}`,
    '    sleep 1',
    '  done',
    ') 2>/dev/null &',
  ];
}
