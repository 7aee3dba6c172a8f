import { fileURLToPath } from 'node:url';
import { gangEnv } from '../driver.js';
import { BWRAP } from '../process/sandbox.js';
import { SLIRP } from '../process/network.js';
import {
  FORWARD_PORTS,
  JOB_FILES,
  KILL_SIGNAL,
  SHELL,
  envLines,
  quote,
  sampler,
  sandboxPid,
  type BatchPlan,
} from './script.js';

/**
 * A job of several workers on Slurm (docs/jobs.md "Distributed jobs"): one allocation of N nodes,
 * one task per node. The batch script runs on the allocation's first node and starts the workers
 * with `srun --kill-on-bad-exit=1` (a worker that fails stops the others); each task runs the
 * worker script, which makes the worker's sandbox as a single job's batch script does, in a
 * directory of its own, `w<rank>/` (rank: SLURM_PROCID).
 *
 * The workers reach each other through their slirp4netns networks: each worker's network namespace
 * has its node's address (the NodeAddr) on its loopback, slirp4netns forwards a block of
 * GANG_PORTS from that address of the node to that address in the namespace, and the namespace's
 * ephemeral ports are that block (less its first port, the worker's rendezvous port): a port a
 * worker binds without naming one (gloo's, Open MPI's) is reachable by the others at its node's
 * address. slirp4netns, not the pasta of a single job's network: Debian 12's pasta completes a
 * forwarded connection inside the namespace only once the connecting side has sent data, and
 * gloo's pairs wait for the listening side to speak first; slirp4netns connects to the worker as
 * it accepts. The namespace is made by `unshare --map-root-user` around bwrap, so that the
 * script, root in it, may give it the node's address and set its `ip_local_port_range`.
 */

/** The ports a worker's block is taken from, in blocks of `block`; `tries` blocks at most. */
export const GANG_PORTS = { first: 20000, count: 10000, block: 100, tries: 10 } as const;

/** What the worker script writes in the job's directory beside each worker's own. */
export const GANG_FILES = {
  /** The master's rendezvous port (the first of rank 0's block), written once its network is up. */
  masterPort: 'master.port',
  /** Made once rank 0 listens on its rendezvous port: the other workers' commands start then. */
  masterListening: 'master.listening',
  /** srun's own messages (a task's exit, the step's end), kept off the job's log. */
  srunLog: 'srun.log',
  /** The batch script's own output (sbatch's --output): Slurm's messages, not the workers'. */
  batchLog: 'batch.log',
  /** The worker script, which every task runs. */
  worker: 'worker.sh',
} as const;

/**
 * Adds the forwards of a block of ports to slirp4netns (its API socket), from the node's address to
 * the same address in the namespace: `perl -e FORWARD <socket> <address> <first> <blocks> <block>
 * <tries> [<to>]` tries random blocks (a port of the node already taken fails its block, whose
 * forwards are removed) and prints the first port of the one it got; with `to`, the block is one
 * port, forwarded to port `to` in the namespace (the job's HTTP port). perl, which Debian always installs:
 * the API is JSON over a Unix socket, which sh cannot speak.
 */
const FORWARD = `use IO::Socket::UNIX;
my ($sock, $addr, $first, $blocks, $block, $tries, $to) = @ARGV;
sub api {
  my $c = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Peer => $sock) or return "";
  print $c $_[0]; shutdown($c, 1); local $/; my $r = <$c>; return $r // "";
}
for (1 .. $tries) {
  my $lo = $first + int(rand($blocks)) * $block;
  my @ids;
  for my $p ($lo .. $lo + $block - 1) {
    my $r = api(qq({"execute":"add_hostfwd","arguments":{"proto":"tcp","host_addr":"$addr","host_port":$p,"guest_addr":"$addr","guest_port":@{[$to // $p]}}}));
    if ($r =~ /"id":\\s*(\\d+)/) { push @ids, $1; next; }
    print STDERR "orrery: port $p of $addr: $r\\n";
    api(qq({"execute":"remove_hostfwd","arguments":{"id":$_}})) for @ids;
    @ids = ();
    last;
  }
  if (@ids) { print "$lo\\n"; exit 0; }
}
exit 1;
`;

/** Each worker's own output in its directory, beside its `exit`, `started` and `stats`. */
export const WORKER_LOG = 'out.log';
/** Made in a worker's directory once its command has ended; its `exit` may come later. */
export const WORKER_ENDED = 'ended';
/** The file in the worker's /tmp that sets its rendezvous variables before its command runs. */
const WORKER_ENV = '.orrery-worker.env';

export const workerDir = (rank: number) => `w${rank}`;

/**
 * The launch agent's other end on a worker's node (mpi.ts), run from the server's checkout as the
 * app programs are; not in the programs the sandbox shows: it runs outside. The path names the
 * source, from src/ and dist/ alike (`../../../` is packages/server from both).
 */
const WORKER_BRIDGE = fileURLToPath(
  new URL('../../../src/runtime/slurm/node/worker-bridge.mjs', import.meta.url),
);

/**
 * The device of the worker's own address in its network. A device of its own, not loopback:
 * Open MPI takes an interface's addresses by device, and would send from 127.0.0.1 beside it.
 * A dummy device where the kernel has them, else one end of a veth pair (Debian's kernels
 * load either on demand).
 */
const DEVICE = 'orrery0';
const ownDevice = () =>
  `{ /sbin/ip link add ${DEVICE} type dummy 2>/dev/null || /sbin/ip link add ${DEVICE} type veth peer name orrery1; } && /sbin/ip link set ${DEVICE} up`;

/** Open MPI's interfaces for its daemons' and ranks' connections: each worker's own address. */
const MPI_ADDRESS = ['OMPI_MCA_oob_tcp_if_include', 'OMPI_MCA_btl_tcp_if_include'];
/** The ranks' listening ports: the worker's block, which slirp4netns forwards. */
const MPI_PORTS = ['OMPI_MCA_btl_tcp_port_min_v4', 'OMPI_MCA_btl_tcp_port_range_v4'];

export interface GangPlan extends BatchPlan {
  workers: number;
  /** CPUs of each worker: srun of Slurm 22.05 no longer takes the job's --cpus-per-task. */
  cpus: number;
  /** The service user's ids, which the sandbox keeps inside its nested user namespace. */
  uid: number;
  gid: number;
}

const RANK = '@ORRERY_RANK@';

/** Values of gangEnv that stand for the worker's rank, the master's address and its port. */
const MARKS = { rank: 2_000_000_001, port: 2_000_000_002, address: '@ORRERY_MASTER@' };

/** gangEnv's variables as shell lines, with the rank, address and port from shell variables. */
function gangEnvLines(workers: number): string[] {
  const env = gangEnv(MARKS.rank, workers, { address: MARKS.address, port: MARKS.port });
  const shell: Record<string, string> = {
    [String(MARKS.rank)]: '$rank',
    [String(MARKS.port)]: '$port',
    [MARKS.address]: '$master',
  };
  return Object.entries(env).map(([k, v]) => `export ${k}="${shell[v] ?? v}"`);
}

/** A function that sets `$2` to the address of node `$1` (its NodeAddr, resolved to IPv4). */
function addressOf(nodeAddresses: Record<string, string>): string[] {
  return [
    'address_of() {',
    '  case "$1" in',
    ...Object.entries(nodeAddresses).map(([n, a]) => `    ${quote(n)}) a=${quote(a)} ;;`),
    '    *) a=$1 ;;',
    '  esac',
    '  case "$a" in',
    '    *[!0-9.]*) a=$(getent ahostsv4 "$a" | sed -n \'1s/ .*//p\') ;;',
    '  esac',
    '  eval "$2=\\$a"',
    '}',
  ];
}

/** The batch script: the master's address, then every worker through srun. */
export function gangBatchScript(p: GangPlan): string {
  const f = JOB_FILES;
  return [
    '#!/bin/sh',
    `# Orrery job ${p.spec.id}: ${p.workers} workers, submitted by the server's slurm runtime.`,
    "trap '' TERM",
    // srun passes the kill's second stage on to the workers, whose scripts kill their sandboxes.
    `trap '' ${KILL_SIGNAL}`,
    `cd ${quote(p.jobDir)} || exit 125`,
    `finish() { echo $1 > ${f.exit}.tmp && mv ${f.exit}.tmp ${f.exit}; exit $1; }`,
    `[ -e ${f.killed} ] && finish 143`,
    ...addressOf(p.nodeAddresses),
    // The batch script runs on the allocation's first node, where rank 0 runs.
    'address_of "$SLURMD_NODENAME" master',
    'export ORRERY_GANG_MASTER="$master"',
    `rm -f ${GANG_FILES.masterPort} ${GANG_FILES.masterListening} ${f.port} ${f.listening}`,
    // The workers' output, merged by srun, is the job's log; Slurm's own messages (a cancel's)
    // go to the batch script's output, `batch.log`.
    `srun --kill-on-bad-exit=1 --ntasks-per-node=1 --cpus-per-task=${p.cpus} /bin/sh ${GANG_FILES.worker} >>out.log 2>>${GANG_FILES.srunLog}`,
    'finish $?',
    '',
  ].join('\n');
}

/** The worker script, run by each task on its node. */
export function gangWorkerScript(p: GangPlan): string {
  const f = JOB_FILES;
  const { first, count, block, tries } = GANG_PORTS;
  // The sandbox's paths and host name name the worker: its rank comes in as a shell variable.
  const sandbox = p.sandbox.map(quote).join(' ').replaceAll(RANK, `'"$rank"'`);
  const command = `. /tmp/${WORKER_ENV} && exec /bin/sh -c "$0"`;
  return [
    '#!/bin/sh',
    "trap '' TERM",
    // The worker's own messages go with its output (srun's stderr is srun.log).
    'exec 2>&1',
    'rank=$SLURM_PROCID',
    `cd ${quote(p.jobDir)}/w$rank || exit 125`,
    `finish() { echo $1 > ${f.exit}.tmp && mv ${f.exit}.tmp ${f.exit}; exit $1; }`,
    'pid=; sandbox=; slirp=; bridge=',
    `stop() { kill -KILL $pid $sandbox $slirp $bridge 2>/dev/null; finish 137; }`,
    `trap stop ${KILL_SIGNAL}`,
    `[ -e ../${f.killed} ] && finish 143`,
    `echo "$SLURMD_NODENAME" > ${f.node}`,
    `for tool in ${BWRAP} ${SLIRP} /usr/bin/unshare /usr/bin/nsenter /usr/bin/perl /sbin/ip; do`,
    '  [ -x $tool ] && continue',
    `  echo "orrery: this node has no $tool, which the job's sandbox needs" >&2`,
    '  finish 125',
    'done',
    ...envLines(p.spec),
    ...addressOf(p.nodeAddresses),
    'address_of "$SLURMD_NODENAME" self',
    'master=$ORRERY_GANG_MASTER',
    // The worker's host name is its own address in its sandbox: what gloo and Open MPI advertise.
    `printf '127.0.0.1 localhost\\n%s %s\\n' "$self" ${quote(`${p.spec.id}.w`)}$rank > hosts`,
    `rm -f sandbox.json release slirp.sock slirp.ready output ${WORKER_LOG} ${WORKER_ENDED}`,
    // MPI's launch agent reaches the other workers through this worker's bridge (mpi.ts). Its
    // socket's path is relative to the worker's directory: the shared directory's may be longer
    // than a socket's path can be.
    `/usr/bin/env node ${quote(WORKER_BRIDGE)} run/exec.sock ${quote(p.jobDir)} ${quote(p.spec.id)} ${p.workers} >>net.log 2>&1 &`,
    'bridge=$!',
    'failed=',
    'abort() { echo "orrery: $1 (see net.log)" >&2; failed=125; kill -KILL $pid $sandbox 2>/dev/null; }',
    'mkfifo release output && exec 5<>release || finish 125',
    // The worker's output goes to its own log and on to srun, which merges the workers'.
    `tee -a ${WORKER_LOG} < output &`,
    'tee=$!',
    `/usr/bin/unshare --user --map-root-user --net ${BWRAP} ${sandbox} -- ${SHELL} ${quote(command)} ${quote(p.command)} 3>sandbox.json 4<&5 5<&- >output 2>&1 &`,
    'sandbox=$!',
    'until grep -qs child-pid sandbox.json; do',
    '  kill -0 $sandbox 2>/dev/null || break',
    '  sleep 0.02',
    'done',
    `pid=$(${sandboxPid('sandbox.json')})`,
    // slirp4netns and the script join the namespaces of unshare's process (bwrap's, outside its own).
    'port=',
    'if [ -n "$pid" ]; then',
    `  ${SLIRP} --configure --mtu=65520 --disable-host-loopback --disable-dns --api-socket slirp.sock --ready-fd=3 \\`,
    '    --userns-path=/proc/$sandbox/ns/user --netns-type=path /proc/$sandbox/ns/net tap0 3>slirp.ready >net.log 2>&1 &',
    '  slirp=$!',
    '  until [ -s slirp.ready ]; do',
    '    kill -0 $slirp 2>/dev/null || break',
    '    sleep 0.02',
    '  done',
    '  if ! [ -s slirp.ready ]; then',
    "    abort 'slirp4netns could not give the worker its network'",
    `  elif ! port=$(/usr/bin/perl -e ${quote(FORWARD)} slirp.sock "$self" ${first} ${count / block} ${block} ${tries} 2>>net.log); then`,
    "    abort 'no free block of ports on this node for the worker'",
    '  elif ! /usr/bin/nsenter --preserve-credentials --user=/proc/$sandbox/ns/user --net=/proc/$sandbox/ns/net \\',
    `      sh -c "${ownDevice()} && /sbin/ip addr add $self/32 dev ${DEVICE} && echo $((port + 1)) $((port + ${block - 1})) > /proc/sys/net/ipv4/ip_local_port_range"; then`,
    "    abort 'the worker could not have its address and ports'",
    '  fi',
    ...httpForward(p).map((l) => `  ${l}`),
    'fi',
    'own=$port',
    // Rank 0's rendezvous port, for every worker's MASTER_PORT.
    'if [ "$rank" = 0 ]; then',
    `  echo "$port" > ../${GANG_FILES.masterPort}.tmp && mv ../${GANG_FILES.masterPort}.tmp ../${GANG_FILES.masterPort}`,
    'else',
    `  until [ -s ../${GANG_FILES.masterPort} ] || [ -e ../${f.killed} ]; do sleep 0.02; done`,
    `  port=$(cat ../${GANG_FILES.masterPort} 2>/dev/null)`,
    // slirp4netns accepts a connection on the node before it knows whether the worker listens,
    // and closes it when not: a peer too early would see a broken connection, not a refused one, and
    // PyTorch's store gives up on it. The others start once rank 0 listens on its port.
    // Or once rank 0 has exited without listening (a job that needs no rendezvous).
    `  until [ -e ../${GANG_FILES.masterListening} ] || [ -e ../${workerDir(0)}/${WORKER_ENDED} ] || [ -e ../${f.killed} ]; do sleep 0.05; done`,
    'fi',
    `{ ${gangEnvLines(p.workers).join('; ')}; } 2>/dev/null`,
    // Open MPI's daemons and ranks listen and are reached at the worker's own address alone: its
    // network's other one (slirp4netns's) is every worker's, and leads nowhere from another.
    ...MPI_ADDRESS.map((k) => `export ${k}=${DEVICE}`),
    `export ${MPI_PORTS[0]}=$((own + 1)) ${MPI_PORTS[1]}=${block - 1}`,
    `export -p | grep -E '^export (${[...Object.keys(gangEnv(0, 1, { address: '', port: 0 })), ...MPI_ADDRESS, ...MPI_PORTS].join('|')})=' > tmp/${WORKER_ENV}`,
    `if [ -e ../${f.killed} ] || [ -z "$port" ]; then kill -KILL $pid $sandbox 2>/dev/null; failed=\${failed:-143}; fi`,
    `[ -z "$failed" ] && : > ${f.started}`,
    'echo >&5; exec 5>&-',
    'if [ "$rank" = 0 ] && [ -n "$port" ]; then',
    '  hex=$(printf %04X $port)',
    ...markWhenListening('$hex', `../${GANG_FILES.masterListening}`, 0.05),
    'fi',
    ...httpListening(p),
    ...sampler(),
    'wait $sandbox',
    'code=$?',
    '[ -n "$failed" ] && code=$failed',
    `: > ${WORKER_ENDED}`,
    // The worker's network outlives its command until every worker's has ended, as a machine's
    // does: a peer may still be reading what this one sent before it exited, which its
    // slirp4netns has yet to pass on. A worker that failed stops the others (srun) instead.
    `ended() { for e in ${[...Array(p.workers).keys()].map((r) => `../${workerDir(r)}/${WORKER_ENDED}`).join(' ')}; do [ -e $e ] || return 1; done; }`,
    `[ "$code" = 0 ] && until ended || [ -e ../${f.killed} ]; do sleep 0.05; done`,
    'kill $slirp $bridge 2>/dev/null',
    'wait $tee',
    'finish $code',
    '',
  ].join('\n');
}

/**
 * Rank 0's HTTP port, for a job that has one: a forward from a free port of its node's address
 * (as a single job's, script.ts), written to the job's `port`.
 */
function httpForward(p: GangPlan): string[] {
  const port = p.spec.httpPort;
  if (!port) return [];
  const { first, count, tries } = FORWARD_PORTS;
  const forward = `/usr/bin/perl -e ${quote(FORWARD)} slirp.sock "$self" ${first} ${count} 1 ${tries} ${port}`;
  const f = JOB_FILES;
  return [
    'if [ -z "$failed" ] && [ "$rank" = 0 ]; then',
    `  if http=$(${forward} 2>>net.log); then`,
    `    echo $http > ../${f.port}.tmp && mv ../${f.port}.tmp ../${f.port}`,
    '  else',
    `    abort "no free port on this node for the job's HTTP port ${port}"`,
    '  fi',
    'fi',
  ];
}

/** Makes the job's `listening` once rank 0 listens on the HTTP port (the forward accepts before). */
function httpListening(p: GangPlan): string[] {
  const port = p.spec.httpPort;
  if (!port) return [];
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return [
    `if [ "$rank" = 0 ] && [ -s ../${JOB_FILES.port} ]; then`,
    ...markWhenListening(hex, `../${JOB_FILES.listening}`, 0.25),
    'fi',
  ];
}

/**
 * Lines that, in the background while the sandbox lives, write `marker` once the worker listens
 * on the port `hex` (its four hex digits as /proc/net/tcp shows them; a shell word or a literal).
 */
function markWhenListening(hex: string, marker: string, everySeconds: number): string[] {
  return [
    '  (while kill -0 $sandbox 2>/dev/null; do',
    `    if grep -qs ":${hex} [0-9A-F:]* 0A " /proc/$pid/net/tcp /proc/$pid/net/tcp6; then`,
    `      : > ${marker}; break`,
    '    fi',
    `    sleep ${everySeconds}`,
    '  done) &',
  ];
}

/** The rank placeholder of the sandbox's per-worker paths and host name (gangWorkerScript). */
export const RANK_PLACEHOLDER = RANK;
