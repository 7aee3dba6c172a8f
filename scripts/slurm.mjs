// A private two-node Slurm 22.05 cluster on loopback for the tests and benches (Debian's
// slurm-wlm; recipes in docs/operations.md). Everything lives in one temp directory: its own munge
// key and munged socket, slurm.conf, state, spool, logs and pid files, and ports picked free at
// start, so several clusters (other checkouts, CI) run side by side on one machine.
//
//   node scripts/slurm.mjs start        starts one, prints its environment and its directory
//   node scripts/slurm.mjs stop DIR     stops the one in DIR and removes DIR
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isRoot } from './lib.mjs';

const SBIN = '/usr/sbin';
/** slurmrestd refuses root; it (and the REST jobs of the tests) run as this system user. */
export const SLURM_SERVICE_USER = 'orrery-slurm';
// dbv0.0.38 would need slurmdbd (slurmrestd dies without it); accounting is off here.
const REST_PLUGINS = 'openapi/v0.0.38';

/** True when the daemons are installed and this process may start them (slurmd needs root). */
export function slurmAvailable() {
  return (
    isRoot &&
    ['slurmctld', 'slurmd', 'slurmrestd', 'munged'].every((b) => existsSync(join(SBIN, b))) &&
    existsSync('/usr/lib/x86_64-linux-gnu/slurm-wlm/auth_jwt.so')
  );
}

function ids(user) {
  const uid = Number(execFileSync('id', ['-u', user]).toString());
  const gid = Number(execFileSync('id', ['-g', user]).toString());
  return { uid, gid };
}

function ensureServiceUser() {
  if (spawnSync('id', [SLURM_SERVICE_USER], { stdio: 'ignore' }).status === 0) return;
  execFileSync('useradd', [
    '--system',
    '--no-create-home',
    '--shell',
    '/usr/sbin/nologin',
    SLURM_SERVICE_USER,
  ]);
}

async function freePort() {
  const srv = createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

/** A directory owned by `owner` (user name) with `mode`. */
function dirFor(path, owner, mode) {
  mkdirSync(path, { recursive: true });
  if (owner) {
    const { uid, gid } = ids(owner);
    chownSync(path, uid, gid);
  }
  chmodSync(path, mode);
  return path;
}

function secretFile(path, bytes, owner) {
  writeFileSync(path, bytes, { mode: 0o600 });
  const { uid, gid } = ids(owner);
  chownSync(path, uid, gid);
}

function slurmConf({ dir, cluster, nodes, ports }) {
  const [n1, n2] = nodes;
  return `# Private test cluster ${cluster} (scripts/slurm.mjs)
ClusterName=${cluster}
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=${ports.ctld}
SlurmUser=slurm
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=${dir}/munge-run/munge.sock
# slurmrestd passes each request's JWT on to slurmctld; whoever holds this key is root here.
AuthAltTypes=auth/jwt
AuthAltParameters=jwt_key=${dir}/state/jwt.key
StateSaveLocation=${dir}/state
SlurmdSpoolDir=${dir}/spool/%n
SlurmctldPidFile=${dir}/run/slurmctld.pid
SlurmdPidFile=${dir}/run/slurmd-%n.pid
SlurmctldLogFile=${dir}/log/slurmctld.log
SlurmdLogFile=${dir}/log/slurmd-%n.log
# cgroup v1 trees are named slurm_<node>: node names unique per cluster keep parallel clusters apart.
ProctrackType=proctrack/cgroup
TaskPlugin=task/cgroup,task/affinity
JobAcctGatherType=jobacct_gather/cgroup
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# Without it a job that names no memory takes the node's whole RealMemory and jobs serialise.
DefMemPerCPU=256
MinJobAge=300
# 1 s instead of 3 s from submit to running.
SchedulerParameters=batch_sched_delay=0
AccountingStorageType=accounting_storage/none
# A node an administrator downs stays down until resumed (2 would bring it back at its next
# registration, e.g. after a slurmctld restart); one that stopped answering returns on its own.
ReturnToService=1
MpiDefault=none
KillWait=5
GresTypes=gpu
NodeName=${n1} NodeHostname=localhost NodeAddr=127.0.0.1 Port=${ports.n1} CPUs=2 RealMemory=2000
NodeName=${n2} NodeHostname=localhost NodeAddr=127.0.0.1 Port=${ports.n2} CPUs=2 RealMemory=2000 Gres=gpu:fake:2
# Default partition on both nodes, as on most clusters; \`gpu\` only where the GPUs are.
PartitionName=cpu Nodes=${n1},${n2} Default=YES MaxTime=INFINITE State=UP
PartitionName=gpu Nodes=${n2} MaxTime=INFINITE State=UP
`;
}

const CGROUP_CONF = `CgroupPlugin=autodetect
ConstrainCores=yes
ConstrainRAMSpace=yes
ConstrainSwapSpace=yes
ConstrainDevices=yes
`;

function slurmEnv(conf) {
  return { ...process.env, SLURM_CONF: conf };
}

function cmd(conf, bin, args) {
  return spawnSync(bin, args, { encoding: 'utf8', env: slurmEnv(conf), timeout: 10000 });
}

function must(r, what) {
  if (r.status !== 0) throw new Error(`${what} failed: ${(r.stderr || r.stdout || '').trim()}`);
}

/** The last lines of each log, for the error of a start that failed (its directory goes). */
function tails(logDir) {
  return readdirSync(logDir)
    .map(
      (f) => `--- ${f}\n${readFileSync(join(logDir, f), 'utf8').split('\n').slice(-8).join('\n')}`,
    )
    .join('\n');
}

/** A daemon could not bind its port: another process took it after it was chosen free. */
class PortTaken extends Error {}

const portTaken = (logDir) =>
  readdirSync(logDir).some((f) =>
    readFileSync(join(logDir, f), 'utf8').includes('Address already in use'),
  );

async function waitFor(what, fn, timeoutMs, logs) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await fn()) return;
    if (portTaken(logs)) throw new PortTaken(`${what}: a port was taken\n${tails(logs)}`);
    if (Date.now() > until)
      throw new Error(`${what} not ready after ${timeoutMs} ms\n${tails(logs)}`);
    await sleep(50);
  }
}

function nodeStates(conf) {
  const r = cmd(conf, 'sinfo', ['-h', '-N', '-o', '%N %t']);
  // One line per node and partition: a node in two partitions comes twice.
  return r.status === 0 ? [...new Set(r.stdout.trim().split('\n').filter(Boolean))] : [];
}

/**
 * Starts a cluster and waits until slurmctld answers, both nodes are idle and slurmrestd listens.
 * Returns null when Slurm is not installed or this is not root.
 */
export async function startSlurm() {
  if (!slurmAvailable()) return null;
  // The daemons' ports are chosen free, then bound by the daemons: one taken meanwhile fails
  // that cluster, and another is made on other ports.
  for (let tries = 1; ; tries++) {
    try {
      return await startCluster();
    } catch (e) {
      if (!(e instanceof PortTaken) || tries >= 3) throw e;
      process.stdout.write(`Slurm test cluster: ${e.message.split('\n')[0]}; starting again\n`);
    }
  }
}

async function startCluster() {
  const t0 = performance.now();
  ensureServiceUser();
  const tag = randomBytes(3).toString('hex');
  const cluster = `o${tag}`;
  const nodes = [`${cluster}n1`, `${cluster}n2`];
  const ports = { ctld: await freePort(), n1: await freePort(), n2: await freePort() };
  const restPort = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'orrery-slurm-'));
  chmodSync(dir, 0o755);
  const stop = () => stopSlurm(dir);
  try {
    dirFor(join(dir, 'munge'), 'munge', 0o700);
    dirFor(join(dir, 'munge-run'), 'munge', 0o755);
    dirFor(join(dir, 'state'), 'slurm', 0o755);
    dirFor(join(dir, 'log'), 'slurm', 0o755);
    dirFor(join(dir, 'spool'), null, 0o755);
    dirFor(join(dir, 'run'), null, 0o755);
    dirFor(join(dir, 'dev'), null, 0o755);
    // Job scripts, logs and files of any job user: every node sees this directory (one host).
    dirFor(join(dir, 'shared'), null, 0o1777);
    secretFile(join(dir, 'munge', 'munge.key'), randomBytes(128), 'munge');
    secretFile(join(dir, 'state', 'jwt.key'), randomBytes(32), 'slurm');
    // gres.conf's File= must exist or slurmd waits 20 s and dies; char devices stand in for GPUs.
    for (const i of [0, 1])
      execFileSync('mknod', [join(dir, 'dev', `nvidia${i}`), 'c', '195', `${i}`]);
    const conf = join(dir, 'slurm.conf');
    writeFileSync(conf, slurmConf({ dir, cluster, nodes, ports }));
    writeFileSync(join(dir, 'cgroup.conf'), CGROUP_CONF);
    writeFileSync(
      join(dir, 'gres.conf'),
      `NodeName=${nodes[1]} Name=gpu Type=fake File=${dir}/dev/nvidia[0-1]\n`,
    );

    must(
      spawnSync(
        'runuser',
        [
          '-u',
          'munge',
          '--',
          join(SBIN, 'munged'),
          `--socket=${dir}/munge-run/munge.sock`,
          `--key-file=${dir}/munge/munge.key`,
          `--pid-file=${dir}/munge-run/munged.pid`,
          `--log-file=${dir}/munge-run/munged.log`,
          `--seed-file=${dir}/munge-run/seed`,
        ],
        { encoding: 'utf8' },
      ),
      'munged',
    );
    const env = slurmEnv(conf);
    must(spawnSync(join(SBIN, 'slurmctld'), ['-f', conf], { encoding: 'utf8', env }), 'slurmctld');
    for (const n of nodes)
      must(spawnSync(join(SBIN, 'slurmd'), ['-f', conf, '-N', n], { encoding: 'utf8', env }), n);
    const rest = startRest(dir, conf, restPort);

    const logs = join(dir, 'log');
    await waitFor(
      'slurmctld',
      () => cmd(conf, 'scontrol', ['ping']).stdout?.includes('UP'),
      20000,
      logs,
    );
    await waitFor(
      'both nodes idle',
      () => {
        const s = nodeStates(conf);
        return s.length === 2 && s.every((l) => l.endsWith(' idle'));
      },
      30000,
      logs,
    );
    const restUrl = `http://127.0.0.1:${restPort}`;
    // Without a token slurmrestd answers 401: that is enough to know it is listening.
    await waitFor(
      'slurmrestd',
      () => {
        if (rest.exitCode !== null) throw new Error(`slurmrestd exited\n${tails(logs)}`);
        return fetch(`${restUrl}/openapi/v3`).then(
          () => true,
          () => false,
        );
      },
      20000,
      logs,
    );

    return {
      dir,
      conf,
      cluster,
      nodes,
      partitions: { cpu: nodes, gpu: [nodes[1]] },
      restUrl,
      jwtKeyPath: join(dir, 'state', 'jwt.key'),
      user: SLURM_SERVICE_USER,
      sharedDir: join(dir, 'shared'),
      env: { SLURM_CONF: conf },
      /** What the `*.slurm.test.ts` files read. */
      testEnv: {
        ORRERY_TEST_SLURM_CONF: conf,
        ORRERY_TEST_SLURM_REST: restUrl,
        ORRERY_TEST_SLURM_JWT_KEY: join(dir, 'state', 'jwt.key'),
        ORRERY_TEST_SLURM_USER: SLURM_SERVICE_USER,
        ORRERY_TEST_SLURM_SHARED: join(dir, 'shared'),
      },
      startMs: performance.now() - t0,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

function startRest(dir, conf, port) {
  const out = openSync(join(dir, 'log', 'slurmrestd.log'), 'a');
  const child = spawn(
    join(SBIN, 'slurmrestd'),
    ['-f', conf, '-a', 'rest_auth/jwt', '-s', REST_PLUGINS, `127.0.0.1:${port}`],
    {
      ...ids(SLURM_SERVICE_USER),
      // daemon: slurmrestd takes each request's token instead of one of its own.
      env: { PATH: '/usr/bin:/bin', SLURM_CONF: conf, SLURM_JWT: 'daemon' },
      stdio: ['ignore', out, out],
      detached: true,
    },
  );
  child.unref();
  closeSync(out);
  writeFileSync(join(dir, 'run', 'slurmrestd.pid'), `${child.pid}\n`);
  return child;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function pidFiles(dir) {
  const files = [];
  const run = join(dir, 'run');
  if (existsSync(run)) for (const f of readdirSync(run)) files.push(join(run, f));
  files.push(join(dir, 'munge-run', 'munged.pid'));
  return files.filter((f) => f.endsWith('.pid') && existsSync(f));
}

/** Removes the cgroup v1 trees its slurmds made (empty once their jobs are gone). */
function removeCgroups(nodes) {
  const root = '/sys/fs/cgroup';
  if (!existsSync(root)) return;
  const rmTree = (p) => {
    try {
      for (const e of readdirSync(p, { withFileTypes: true }))
        if (e.isDirectory()) rmTree(join(p, e.name));
      rmdirSync(p);
    } catch {
      // Busy or already gone: the kernel frees it with its last process.
    }
  };
  for (const ctrl of readdirSync(root))
    for (const n of nodes) {
      const p = join(root, ctrl, `slurm_${n}`);
      if (existsSync(p)) rmTree(p);
    }
}

/** Cancels every job, stops every daemon of the cluster in `dir`, and removes `dir`. */
export async function stopSlurm(dir) {
  const conf = join(dir, 'slurm.conf');
  let nodes = [];
  if (existsSync(conf)) {
    nodes = [...readFileSync(conf, 'utf8').matchAll(/^NodeName=(\S+)/gm)].map((m) => m[1]);
    // Jobs first, while slurmd can still kill their processes and clean their cgroups.
    const q = cmd(conf, 'squeue', ['-h', '-o', '%i']);
    const jobs = q.status === 0 ? q.stdout.split('\n').filter(Boolean) : [];
    if (jobs.length) {
      cmd(conf, 'scancel', ['--full', '--signal=KILL', ...jobs]);
      cmd(conf, 'scancel', jobs);
      const until = Date.now() + 5000;
      while (
        Date.now() < until &&
        cmd(conf, 'squeue', ['-h', '-t', 'R,CG', '-o', '%i']).stdout?.trim()
      )
        await sleep(100);
    }
  }
  const pids = pidFiles(dir)
    .map((f) => Number(readFileSync(f, 'utf8').trim()))
    .filter((p) => p > 0 && alive(p));
  for (const p of pids) process.kill(p, 'SIGTERM');
  const until = Date.now() + 5000;
  while (pids.some(alive) && Date.now() < until) await sleep(50);
  for (const p of pids.filter(alive)) process.kill(p, 'SIGKILL');
  removeCgroups(nodes);
  rmSync(dir, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [what, dir] = process.argv.slice(2);
  if (what === 'start') {
    const c = await startSlurm();
    if (!c) {
      process.stderr.write('Slurm is not installed (npm test installs it) or this is not root\n');
      process.exit(1);
    }
    process.stdout.write(
      `Cluster ${c.cluster} up in ${Math.round(c.startMs)} ms (nodes ${c.nodes.join(', ')})\n` +
        Object.entries({ ...c.env, ...c.testEnv })
          .map(([k, v]) => `export ${k}=${v}\n`)
          .join('') +
        `# stop it with: node scripts/slurm.mjs stop ${c.dir}\n`,
    );
    // The daemons run on; fetch's idle keep-alive socket would hold this process a few seconds.
    process.exit(0);
  } else if (what === 'stop' && dir) {
    await stopSlurm(dir);
  } else {
    process.stderr.write('usage: node scripts/slurm.mjs start | stop DIR\n');
    process.exit(2);
  }
}
