import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDataDir, ROOT, startServer, type RunningServer } from './support/server.js';

const DOCKERD = '/usr/sbin/dockerd';
const BUSYBOX = '/bin/busybox';
const runnable =
  existsSync(DOCKERD) &&
  existsSync(BUSYBOX) &&
  process.getuid?.() === 0 &&
  existsSync('/usr/bin/docker-registry');

/**
 * The real Docker client against Orrery's /v2/: `docker login` with an Orrery token, `docker push`
 * and `docker pull` of an image built here from Debian's busybox-static, and a stranger refused.
 * Debian's dockerd runs on a private socket and data root, without networking of its own.
 */
describe.skipIf(!runnable)('docker login, push and pull through Orrery', () => {
  let server: RunningServer;
  let dockerd: ChildProcess;
  const dir = mkdtempSync(join(tmpdir(), 'orrery-docker-'));
  const env = {
    ...process.env,
    DOCKER_HOST: `unix://${dir}/docker.sock`,
    DOCKER_CONFIG: join(dir, 'config'),
    DOCKER_BUILDKIT: '0',
  };
  const docker = (args: string[], input?: string) =>
    execFileSync('docker', args, { env, input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
  const token = (email: string) =>
    execFileSync(
      process.execPath,
      ['packages/server/bin/orrery.js', 'token', 'create', '--email', email],
      {
        cwd: ROOT,
        env: { ...process.env, ORRERY_DATA_DIR: server.dataDir },
        encoding: 'utf8',
      },
    ).trim();

  beforeAll(async () => {
    dockerd = spawn(
      DOCKERD,
      [
        `--host=unix://${dir}/docker.sock`,
        `--data-root=${dir}/data`,
        `--exec-root=${dir}/exec`,
        `--pidfile=${dir}/docker.pid`,
        '--bridge=none',
        '--iptables=false',
        '--ip6tables=false',
      ],
      { stdio: 'ignore' },
    );
    server = await startServer();
    for (let i = 0; i < 100; i++) {
      try {
        docker(['version']);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const admin = {
      authorization: `Bearer ${token('admin@orrery.local')}`,
      'content-type': 'application/json',
    };
    await fetch(`${server.url}/api/v1/orgs`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'acme' }),
    });
    await fetch(`${server.url}/api/v1/projects`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'vision', org_name: 'acme', cluster_name: 'default' }),
    });
    const ctx = join(dir, 'ctx');
    mkdirSync(ctx);
    copyFileSync(BUSYBOX, join(ctx, 'busybox'));
    writeFileSync(
      join(ctx, 'Dockerfile'),
      'FROM scratch\nCOPY busybox /bin/busybox\nCMD ["/bin/busybox", "true"]\n',
    );
    docker(['build', '-q', '-t', `${new URL(server.url).host}/acme/vision/hello:v1`, ctx]);
  });
  afterAll(async () => {
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
    if (dockerd?.exitCode === null) {
      const exited = new Promise((r) => dockerd.once('exit', r));
      dockerd.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs in with a token, pushes, and lists the image in the project', async () => {
    const host = new URL(server.url).host;
    expect(
      docker(['login', host, '-u', 'admin', '--password-stdin'], token('admin@orrery.local')),
    ).toContain('Login Succeeded');
    docker(['push', `${host}/acme/vision/hello:v1`]);
    const listed = await fetch(`${server.url}/api/v1/images?org_name=acme&project_name=vision`, {
      headers: { authorization: `Bearer ${token('admin@orrery.local')}` },
    });
    expect((await listed.json()).images).toEqual([
      { name: 'hello', repository: 'acme/vision/hello', tags: ['v1'] },
    ]);
  });

  it('pulls the image back', () => {
    const ref = `${new URL(server.url).host}/acme/vision/hello:v1`;
    docker(['rmi', ref]);
    docker(['pull', ref]);
    expect(docker(['image', 'inspect', '--format', '{{.Config.Cmd}}', ref])).toContain(
      '/bin/busybox',
    );
  });

  it('refuses a bad token at login', () => {
    const host = new URL(server.url).host;
    expect(() => docker(['login', host, '-u', 'admin', '--password-stdin'], 'not-a-token')).toThrow(
      /401|unauthorized/i,
    );
  });
});
