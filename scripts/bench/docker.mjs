// Jobs on the docker runtime: a dockerd of the bench's own (Debian's docker.io on a private socket
// and data root, no default bridge or iptables, as packages/server/src/test/dockerd.ts does for the
// tests; that helper is TypeScript outside the build, so its few steps are repeated here), a tiny
// image imported from Debian's busybox-static, and a second Orrery server with ORRERY_RUNTIME=docker.
// The yardstick is `docker run -d` of the same command on the same daemon and network.
import { execFile, execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isRoot } from '../lib.mjs';
import { notMeasured } from './report.mjs';
import { sleep, startServer } from './server.mjs';
import { benchBurst, jobsCount, latencyRows, submitToRunning } from './jobs.mjs';

const DOCKERD = '/usr/sbin/dockerd';
const BUSYBOX = '/bin/busybox';
const IMAGE = 'busybox:orrery';

async function startDockerd(work) {
  const dir = mkdtempSync(join(work, 'dockerd-'));
  const host = `unix://${dir}/docker.sock`;
  const env = {
    ...process.env,
    DOCKER_HOST: host,
    DOCKER_CONFIG: join(dir, 'config'),
    DOCKER_BUILDKIT: '0',
  };
  const daemon = spawn(
    DOCKERD,
    [
      `--host=${host}`,
      `--data-root=${dir}/data`,
      `--exec-root=${dir}/exec`,
      `--pidfile=${dir}/docker.pid`,
      '--bridge=none',
      '--iptables=false',
      '--ip6tables=false',
    ],
    { stdio: 'ignore' },
  );
  const docker = (args, input) =>
    execFileSync('docker', args, {
      env,
      input,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
      maxBuffer: 2 ** 26,
    });
  const stop = async () => {
    if (daemon.exitCode === null && daemon.signalCode === null) {
      try {
        const ids = docker(['ps', '-aq']).split('\n').filter(Boolean);
        if (ids.length) docker(['rm', '-f', ...ids]);
        docker(['network', 'prune', '-f']);
      } catch {
        /* a daemon that does not answer made nothing to clean */
      }
      const exited = new Promise((r) => daemon.once('exit', r));
      daemon.kill('SIGTERM');
      await exited;
    }
    // dockerd leaves its network namespace files mounted in the exec root.
    const mounts = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' ')[1])
      .filter((m) => m?.startsWith(dir + '/'))
      .reverse();
    for (const m of mounts) execFileSync('umount', ['-l', m]);
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    try {
      docker(['version']);
      break;
    } catch (e) {
      if (i >= 150 || daemon.exitCode !== null) {
        await stop();
        throw new Error(`dockerd did not answer: ${e.message}`);
      }
      await sleep(200);
    }
  }
  return { host, env, docker, stop };
}

/** /bin/busybox with a link per applet, `docker import`ed: no registry or network needed. */
function importBusybox(dockerd, work) {
  const root = mkdtempSync(join(work, 'busybox-'));
  mkdirSync(join(root, 'bin'));
  mkdirSync(join(root, 'tmp'));
  copyFileSync(BUSYBOX, join(root, 'bin', 'busybox'));
  for (const a of execFileSync(BUSYBOX, ['--list'], { encoding: 'utf8' }).split('\n')) {
    if (a && a !== 'busybox') symlinkSync('busybox', join(root, 'bin', a));
  }
  const tar = execFileSync('tar', ['-C', root, '-c', '.'], { maxBuffer: 2 ** 26 });
  dockerd.docker(['import', '--change', 'CMD ["/bin/busybox", "sh"]', '-', IMAGE], tar);
  rmSync(root, { recursive: true, force: true });
}

/** ms for `docker run -d` of the command to return (the container started), n times. */
async function dockerRun(dockerd, network, n, command = 'sleep 5') {
  const run = promisify(execFile);
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const { stdout } = await run(
      'docker',
      [
        'run',
        '-d',
        '--network',
        network,
        '--cpus',
        '0.5',
        '--memory',
        '1g',
        IMAGE,
        'sh',
        '-c',
        command,
      ],
      { env: dockerd.env },
    );
    times.push(performance.now() - t0);
    await run('docker', ['rm', '-f', stdout.trim()], { env: dockerd.env });
  }
  return times;
}

export async function benchDockerJobs(work) {
  const what = 'submit → running, docker runtime';
  if (!isRoot) return notMeasured(what, 'dockerd needs root', 'aim ≤ 1.2× docker run');
  if (!existsSync(DOCKERD) || !existsSync(BUSYBOX))
    return notMeasured(
      what,
      `${DOCKERD} or ${BUSYBOX} missing (apt-get install docker.io busybox-static)`,
      'aim ≤ 1.2× docker run',
    );
  let dockerd;
  let server;
  try {
    dockerd = await startDockerd(work);
    importBusybox(dockerd, work);
    // A subnet of its own, so it cannot collide with a test daemon's network on this host.
    const network = `orrery-bench-${process.pid}`;
    dockerd.docker([
      'network',
      'create',
      '--subnet',
      `10.${150 + (process.pid % 50)}.${process.pid % 250}.0/24`,
      network,
    ]);
    server = await startServer(join(work, 'data-docker'), {
      ORRERY_RUNTIME: 'docker',
      DOCKER_HOST: dockerd.host,
      ORRERY_DOCKER_NETWORK: network,
    });
    const jobs = await submitToRunning(server.api, jobsCount);
    const bare = await dockerRun(dockerd, network, jobsCount);
    latencyRows('docker', jobs, 'docker run -d', bare, 'aim ≤ 1.2×');
    await benchBurst(server.api, 'docker');
  } catch (e) {
    notMeasured(what, e.message, 'aim ≤ 1.2× docker run');
  } finally {
    await server?.stop();
    await dockerd?.stop();
  }
}
