import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loadConfig } from '../config.js';
import { controlSocketPath, listenControl } from '../control.js';
import { issueTokenForEmail } from '../auth/issue.js';
import { ProcessDriver } from '../runtime/process/driver.js';
import { SETPRIV } from '../runtime/process/launch.js';
import { KEY_FILE } from '../modules/secrets/key.js';
import { startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { call, jobEnded, JOB_SCOPE, submitJob, tenancy } from '../test/fixtures.js';
import { framesUntilClose } from '../test/ingress.js';

/**
 * A tenant's job on a process runtime without its sandbox (here: `sandbox: false`, as on a host
 * without bubblewrap). By default no one's job runs there; an operator who allows it
 * (ORRERY_UNSANDBOXED_JOBS=allow) still never runs a job as root.
 */
const newJob = (command: string) => ({
  ...JOB_SCOPE,
  preset_name: 'cpu-small',
  image: 'busybox',
  command,
});

async function serverWithoutSandbox(env: Record<string, string>, listen = false) {
  const dataDir = mkdtempSync(join(tmpdir(), 'orrery-sandbox-'));
  // As main.ts makes it (mkdir with the usual umask): crossable by everyone.
  chmodSync(dataDir, 0o755);
  const config = loadConfig({ ORRERY_DATA_DIR: dataDir, ...env });
  const driver = new ProcessDriver({
    dataDir,
    killGraceMs: 1000,
    sandbox: false,
    unsandboxedJobs: config.runtime.unsandboxedJobs,
  });
  const s = await startTestServer(
    { ORRERY_RUNTIME: 'process', ORRERY_DATA_DIR: dataDir, ...env },
    { jobs: { driver }, listen },
  );
  return { s, driver, dataDir, owner: (await tenancy(s)).owner };
}

describe('a job where the process runtime has no sandbox, by default', () => {
  let s: TestServer;
  let owner: TestUser;
  let driver: ProcessDriver;
  let dataDir: string;
  beforeAll(async () => ({ s, owner, driver, dataDir } = await serverWithoutSandbox({})));
  afterAll(() => s?.stop());

  it('is refused when created (409 naming the reason and ORRERY_UNSANDBOXED_JOBS), and nothing runs', async () => {
    const marker = join(dataDir, 'ran');
    const r = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, newJob(`touch ${marker}`));
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/would not be isolated: the sandbox is turned off/);
    expect(r.body.message).toContain('ORRERY_UNSANDBOXED_JOBS=allow');
    // No job recorded, none handed to the runtime, and the console is told before anyone submits.
    expect((await call(s, 'GET', '/api/v1/jobs', owner)).body.jobs).toEqual([]);
    expect(await driver.list()).toEqual([]);
    expect(existsSync(marker)).toBe(false);
    const runtime = (await call(s, 'GET', '/api/v1/jobs/runtime', owner)).body;
    expect(runtime.refused_reason).toBe(r.body.message);
    // An app's install is refused with the same reason (its jobs would run the same way).
    const templates = await call(
      s,
      'GET',
      '/apis/apps/v1/cluster/default/org/acme/project/vision/templates',
      owner,
    );
    expect(templates.status).toBe(200);
    for (const t of templates.body) {
      expect(t).toMatchObject({ available: false, unavailable_reason: r.body.message });
    }
  });
});

const root = process.getuid?.() === 0 && existsSync(SETPRIV);
/** Unsandboxed jobs run when allowed, unless the server is root without setpriv. */
const allowedRuns = process.getuid?.() !== 0 || existsSync(SETPRIV);

describe.skipIf(!allowedRuns)(
  'what a process runtime allowed to run jobs without the sandbox cannot give a job',
  () => {
    let s: TestServer;
    let owner: TestUser;
    let driver: ProcessDriver;
    const APPS = '/apis/apps/v1/cluster/default/org/acme/project/vision';
    beforeAll(async () => {
      ({ s, owner, driver } = await serverWithoutSandbox({ ORRERY_UNSANDBOXED_JOBS: 'allow' }));
    });
    afterAll(() => s?.stop());

    it('refuses a job with a volume when it is created, with the reason the console shows first', async () => {
      const r = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, {
        ...newJob('ls /data'),
        volumes: [{ src_storage_uri: 'storage:data', dst_path: '/data', read_only: true }],
      });
      expect(r.status).toBe(409);
      expect(r.body.message).toBe(
        'Volumes need bubblewrap on the process runtime (apt-get install bubblewrap); this server runs jobs without it',
      );
      expect((await call(s, 'GET', '/api/v1/jobs', owner)).body.jobs).toEqual([]);
      expect(await driver.list()).toEqual([]);
      const runtime = (await call(s, 'GET', '/api/v1/jobs/runtime', owner)).body;
      expect(runtime).toMatchObject({
        volumes_refused_reason: r.body.message,
        http_port_assigned: true,
      });
      expect(runtime.http_refused_reason).toBeUndefined();
    });

    it('disables the apps whose jobs always mount their home, and refuses their install', async () => {
      const templates = (await call(s, 'GET', `${APPS}/templates`, owner)).body as {
        name: string;
        available: boolean;
        unavailable_reason: string | null;
      }[];
      const byName = new Map(templates.map((t) => [t.name, t]));
      for (const name of ['shell', 'postgresql', 'llm-inference', 'orrery-deploy']) {
        expect(byName.get(name)?.available, name).toBe(false);
        expect(byName.get(name)?.unavailable_reason, name).toMatch(
          /cannot run here: volumes need bubblewrap on the process runtime/,
        );
      }
      // A job's volumes are the user's to choose: the job template stays, its volumes refused.
      expect(byName.get('job')?.available).toBe(true);
      const installed = await call(s, 'POST', `${APPS}/instances`, owner, {
        template_name: 'shell',
        input: { preset: { name: 'cpu-small' } },
      });
      expect(installed.status).toBe(400);
      expect(installed.body.message).toBe(byName.get('shell')!.unavailable_reason);
      const listed = await call(s, 'GET', `${APPS}/instances`, owner);
      expect(listed.body.items).toEqual([]);
    });

    it('gives a job with an HTTP port a free port of the host in PORT, not the one it declared', async () => {
      const id = await submitJob(s, owner, 'echo "port=$PORT"', {
        http: { port: 8080, requires_auth: true },
      });
      const done = await jobEnded(s, owner, id);
      expect(done.status).toBe('succeeded');
      const log = (
        await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}/log`, headers: owner.headers })
      ).body;
      const port = Number(/port=(\d+)/.exec(log)?.[1]);
      expect(port, log).toBeGreaterThan(1024);
      expect(port).not.toBe(8080);
    });
  },
);

describe.skipIf(!root)(
  `a job where a root server without the sandbox allows unsandboxed jobs${root ? '' : ' (skipped: needs a root server with setpriv)'}`,
  () => {
    let s: TestServer;
    let owner: TestUser;
    let dataDir: string;
    let control: Server;
    beforeAll(async () => {
      ({ s, owner, dataDir } = await serverWithoutSandbox(
        { ORRERY_UNSANDBOXED_JOBS: 'allow' },
        true,
      ));
      // The control socket `orrery token create` talks to, as main.ts opens it.
      control = await listenControl(dataDir, async (command, args) => ({
        token: await issueTokenForEmail(s.ctx, String(args.email), Number(args.ttlSeconds)),
      }));
    });
    afterAll(async () => {
      control?.close();
      await s?.stop();
    });

    it("runs as neither root nor the server's user, and reads neither /etc/shadow, secrets.key, the data directory nor the control socket", async () => {
      expect(existsSync(join(dataDir, KEY_FILE))).toBe(true);
      const mint = JSON.stringify({ email: s.config.adminEmail, ttlSeconds: 3600 });
      const id = await submitJob(
        s,
        owner,
        [
          'echo "uid=$(id -u) gid=$(id -g) groups=$(id -G)"',
          'head -c 1 /etc/shadow >/dev/null 2>&1 && echo READ-SHADOW',
          `cat ${dataDir}/${KEY_FILE} 2>/dev/null && echo READ-KEY`,
          `cd ${dataDir}/jobs 2>/dev/null && echo ENTERED-DATA-DIR`,
          `curl -sf --unix-socket ${controlSocketPath(dataDir)} -d '${mint}' http://control/token && echo MINTED-TOKEN`,
          'echo mine > "$HOME/file" && echo WROTE-HOME',
        ].join('; '),
      );
      const done = await jobEnded(s, owner, id);
      const log = (
        await s.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}/log`, headers: owner.headers })
      ).body;
      expect(done.status, log).toBe('succeeded');
      const ids = /uid=(\d+) gid=(\d+) groups=([\d ]+)/.exec(log);
      expect(ids, log).not.toBeNull();
      const [uid, gid] = [Number(ids![1]), Number(ids![2])];
      expect(uid).not.toBe(0);
      expect(uid).not.toBe(process.getuid!());
      expect(gid).not.toBe(0);
      expect(ids![3].trim().split(' ').map(Number)).toEqual([gid]);
      expect(log).not.toMatch(/READ-SHADOW|READ-KEY|ENTERED-DATA-DIR|MINTED-TOKEN/);
      // Its own home, outside the data directory, is the one place it writes.
      expect(log).toContain('WROTE-HOME');
      // And every user is told, on the runtime facts the job form and app installs show.
      const runtime = (await call(s, 'GET', '/api/v1/jobs/runtime', owner)).body;
      expect(runtime.refused_reason).toBeUndefined();
      expect(runtime.isolation_warning).toMatch(/^Jobs are not isolated on this installation/);
    });

    it("gets a command exec'd beside it run as its own uid, not as the root server", async () => {
      const id = await submitJob(s, owner, 'sleep 30');
      for (let i = 0; i < 600; i++) {
        if ((await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body.status === 'running') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const socket = new WebSocket(
        `${s.url.replace('http', 'ws')}/api/v1/jobs/${id}/exec?cmd=${encodeURIComponent('id -u; echo $HOME; cat /etc/shadow')}`,
        ['v2.channels.neu.ro'],
        { headers: owner.headers },
      );
      const frames = await framesUntilClose(socket);
      const out = Buffer.concat(frames.filter((f) => f[0] === 1).map((f) => f.subarray(1)));
      // The job's own uid: the one its home (in the job's environment) is named by.
      const [uid, home] = out.toString().trim().split('\n');
      expect(uid).not.toBe('0');
      expect(home).toBe(`/run/orrery/homes/${uid}`);
      const exit = frames.find((f) => f[0] === 3)!;
      expect(JSON.parse(exit.subarray(1).toString())).not.toEqual({ exit_code: 0 });
      await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
    });
  },
);
