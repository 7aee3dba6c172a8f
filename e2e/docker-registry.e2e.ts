import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canRunDockerd,
  importBusybox,
  startDockerd,
  type Dockerd,
} from '../packages/server/src/test/dockerd.mjs';
import { removeDataDir, ROOT, startServer, type RunningServer } from './support/server.js';

const runnable = canRunDockerd && existsSync('/usr/bin/docker-registry');

/**
 * The real Docker client against Orrery's /v2/: `docker login` with an Orrery token, `docker push`
 * and `docker pull` of an image imported here from Debian's busybox-static, and a stranger refused.
 * Debian's dockerd runs on a private socket and data root, without networking of its own.
 */
describe.skipIf(!runnable)('docker login, push and pull through Orrery', () => {
  let server: RunningServer;
  let dockerd: Dockerd;
  const docker = (args: string[], input?: string) => dockerd.docker(args, input);
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
    dockerd = await startDockerd();
    server = await startServer();
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
    importBusybox(dockerd, `${new URL(server.url).host}/acme/vision/hello:v1`);
  });
  afterAll(async () => {
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
    await dockerd?.stop();
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
