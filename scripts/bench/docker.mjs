// Jobs on the docker runtime: a dockerd of the bench's own (Debian's docker.io on a private socket
// and data root, the tests' helper packages/server/src/test/dockerd.mjs), a tiny image imported
// from Debian's busybox-static, and a second Orrery server with ORRERY_RUNTIME=docker.
// The yardstick is `docker run -d` of the same command on the same daemon and network.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  BUSYBOX,
  DOCKERD,
  importBusybox,
  startDockerd,
} from '../../packages/server/src/test/dockerd.mjs';
import { isRoot } from '../lib.mjs';
import { notMeasured } from './report.mjs';
import { startServer } from './server.mjs';
import { benchBurst, jobsCount, latencyRows, submitToRunning } from './jobs.mjs';

const IMAGE = 'busybox:orrery';

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
    dockerd = await startDockerd();
    importBusybox(dockerd, IMAGE);
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
