// A dockerd of its own for tests and the bench (plain JS so that scripts/bench can load it too).
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DOCKERD = '/usr/sbin/dockerd';
export const BUSYBOX = '/bin/busybox';

/** Debian's docker.io and busybox-static are installed and we may run a daemon (root). */
export const canRunDockerd = existsSync(DOCKERD) && existsSync(BUSYBOX) && process.getuid?.() === 0;

/**
 * A dockerd of its own: private socket, data and exec roots in a temporary directory, and no
 * default bridge or iptables rules, so it touches nothing of the host's networking and can run
 * next to other daemons. Resolves once it answers.
 */
export async function startDockerd() {
  const dir = mkdtempSync(join(tmpdir(), 'orrery-dockerd-'));
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
      // Networks' bridges outlive the daemon otherwise; their containers have to go first.
      try {
        const containers = docker(['ps', '-aq']).split('\n').filter(Boolean);
        if (containers.length > 0) docker(['rm', '-f', ...containers]);
        const bridges = docker(['network', 'ls', '-q', '--filter', 'driver=bridge'])
          .split('\n')
          .filter(Boolean)
          .map((id) => `br-${id.slice(0, 12)}`);
        docker(['network', 'prune', '-f']);
        dropIsolation(bridges);
      } catch {
        // A daemon that does not answer made nothing to clean up.
      }
      const exited = new Promise((r) => daemon.once('exit', r));
      daemon.kill('SIGTERM');
      await exited;
    }
    // dockerd leaves its network namespace file mounted in the exec root.
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
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return { host, env, docker, stop };
}

/**
 * Removes the nftables tables the docker runtime made for the daemon's bridges
 * (runtime/docker/isolation.ts names them `orrery-<bridge>`): they outlive a server on purpose,
 * as its containers do, but not the test's daemon.
 */
function dropIsolation(bridges) {
  for (const bridge of bridges) {
    for (const family of ['inet', 'bridge']) {
      try {
        execFileSync('nft', ['delete', 'table', family, `orrery-${bridge}`], { stdio: 'ignore' });
      } catch {
        // No server isolated this one.
      }
    }
  }
}

/**
 * `docker import`s a tiny image made of Debian's busybox-static: /bin/busybox with a link per
 * applet (sh, sleep, httpd, …), so no registry or network is needed. CMD is `/bin/busybox sh`.
 */
export function importBusybox(dockerd, tag) {
  const root = mkdtempSync(join(tmpdir(), 'orrery-busybox-'));
  try {
    mkdirSync(join(root, 'bin'));
    mkdirSync(join(root, 'tmp'));
    copyFileSync(BUSYBOX, join(root, 'bin', 'busybox'));
    const applets = execFileSync(BUSYBOX, ['--list'], { encoding: 'utf8' }).split('\n');
    for (const a of applets.filter((x) => x && x !== 'busybox')) {
      symlinkSync('busybox', join(root, 'bin', a));
    }
    const tar = execFileSync('tar', ['-C', root, '-c', '.'], { maxBuffer: 64 * 2 ** 20 });
    dockerd.docker(['import', '--change', 'CMD ["/bin/busybox", "sh"]', '-', tag], tar);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
