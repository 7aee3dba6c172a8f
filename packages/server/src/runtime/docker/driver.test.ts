import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY_BINARY } from '../../modules/images/supervisor.js';
import { basicAuth } from '../../modules/images/oci-client.js';
import { startTestServer } from '../../test/harness.js';
import { tenancy } from '../../test/fixtures.js';
import { canRunDockerd, importBusybox, startDockerd, type Dockerd } from '../../test/dockerd.mjs';
import { loadConfig } from '../../config.js';
import { DockerDriver } from './driver.js';
import type { JobSpec, ObservedState, SaveProgress } from '../driver.js';
import { createDriver } from '../select.js';
import { listening } from '../../net/ports.js';

import { spec as jobSpec } from '../../test/process-jobs.js';

const IMAGE = 'busybox:orrery';
const spec = (command: string, extra: Partial<JobSpec> = {}) =>
  jobSpec(command, {
    image: IMAGE,
    limits: { cpu: 0.5, memory: 128 * 2 ** 20, shm: false },
    ...extra,
  });

/**
 * Real containers on a dockerd of the test's own (Debian's docker.io on a private socket, no
 * default bridge), from an image made of Debian's busybox-static.
 */
describe.skipIf(!canRunDockerd)('DockerDriver', () => {
  let dockerd: Dockerd;
  let driver: DockerDriver;
  const dataDir = mkdtempSync(join(tmpdir(), 'orrery-docker-driver-'));
  // A subnet of its own, so it cannot collide with another test daemon's network on this host.
  const network = `orrery-test-${process.pid}`;
  const subnet = `10.${200 + (process.pid % 50)}.${process.pid % 250}.0/24`;

  const bridgeName = () =>
    `br-${JSON.parse(dockerd.docker(['network', 'inspect', network]))[0].Id.slice(0, 12)}`;

  const until = async <T extends ObservedState['state']>(id: string, state: T) => {
    for (let i = 0; ; i++) {
      const s = await driver.observe(id);
      if (s.state === state) return s as Extract<ObservedState, { state: T }>;
      if (i > 400) throw new Error(`${id} is ${JSON.stringify(s)}, not ${state}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  beforeAll(async () => {
    dockerd = await startDockerd();
    importBusybox(dockerd, IMAGE);
    dockerd.docker(['network', 'create', '--subnet', subnet, network]);
    driver = await DockerDriver.connect({
      dataDir,
      dockerHost: dockerd.host,
      network,
      killGraceMs: 1000,
    });
  }, 120_000);
  afterAll(async () => {
    await driver?.close();
    await dockerd?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs `sh -c` in the job's container: its output and exit code. */
  const sh = async (id: string, script: string) => {
    const session = await driver.exec(id, {
      command: ['sh', '-c', script],
      tty: false,
      stdin: false,
    });
    const [out, err, code] = await Promise.all([
      text(session.stdout),
      text(session.stderr!),
      session.exitCode,
    ]);
    return { out: out + err, code };
  };

  it('runs a container with the job limits, env and mounts, and reports its exit code', async () => {
    const vol = join(dataDir, 'storage', 'vol');
    mkdirSync(vol, { recursive: true });
    writeFileSync(join(vol, 'in.txt'), 'data\n');
    const s = spec('cat /data/in.txt; echo "$GREETING"; echo x > /data/x || exit 7', {
      env: { GREETING: 'hello' },
      mounts: [{ hostPath: vol, dstPath: '/data', readOnly: true }],
      limits: { cpu: 0.5, memory: 64 * 2 ** 20, shm: true },
    });
    const changed = new Promise((r) => driver.onChange((id) => id === s.id && r(id)));
    await driver.start(s);
    expect(await until(s.id, 'exited')).toMatchObject({ exitCode: 7 });
    await changed;
    const info = JSON.parse(dockerd.docker(['inspect', `orrery-job-${s.id}`]))[0];
    expect(info.HostConfig).toMatchObject({
      NanoCpus: 5e8,
      Memory: 64 * 2 ** 20,
      ShmSize: 64 * 2 ** 20,
    });
    expect(info.Mounts[0]).toMatchObject({ Source: vol, Destination: '/data', RW: false });
    const log = await text(await driver.logs(s.id, { follow: false, timestamps: false }));
    // stdout and stderr are two streams: their order in the log is the engine's.
    expect(log.split('\n').sort()).toEqual([
      '',
      "/bin/sh: can't create /data/x: Read-only file system",
      'data',
      'hello',
    ]);
  });

  it('is the runtime `auto` picks when the engine answers', async () => {
    const lines: string[] = [];
    const config = loadConfig({
      ORRERY_DATA_DIR: dataDir,
      DOCKER_HOST: dockerd.host,
      ORRERY_DOCKER_NETWORK: network,
    });
    const picked = await createDriver(config, { info: (m: string) => lines.push(m) });
    await picked.close();
    expect(picked.name).toBe('docker');
    expect(lines).toEqual([
      `Jobs run on the docker runtime: a Docker engine answers at ${dockerd.host}`,
    ]);
  });

  it('ends a job whose image cannot be pulled, saying why in its log', async () => {
    const s = spec('true', { image: 'registry.invalid/none/such:v1' });
    await driver.start(s);
    expect(await until(s.id, 'exited')).toMatchObject({ exitCode: 125, reason: 'ErrImagePull' });
    const log = await text(await driver.logs(s.id, { follow: false, timestamps: false }));
    expect(log).toMatch(/^ErrImagePull: .*registry\.invalid/);
  });

  it('fails the start of a container that cannot run, leaving nothing behind', async () => {
    const s = spec('true', { entrypoint: 'x', workingDir: 'relative' });
    await expect(driver.start(s)).rejects.toThrow();
    expect(await driver.observe(s.id)).toEqual({ state: 'missing' });
  });

  it('keeps logs, with timestamps and since, after the container is removed', async () => {
    const s = spec('echo one; sleep 1; echo two');
    await driver.start(s);
    const follow = text(await driver.logs(s.id, { follow: true, timestamps: false }));
    await until(s.id, 'exited');
    expect(await follow).toBe('one\ntwo\n');
    await driver.remove(s.id);
    expect(await driver.observe(s.id)).toEqual({ state: 'missing' });
    expect(await driver.list()).not.toContain(s.id);
    const stamped = await text(await driver.logs(s.id, { follow: false, timestamps: true }));
    const lines = stamped.trim().split('\n');
    expect(lines.map((l) => l.slice(25))).toEqual(['one', 'two']);
    const since = new Date(new Date(lines[1].slice(0, 24)).getTime());
    expect(await text(await driver.logs(s.id, { follow: false, timestamps: false, since }))).toBe(
      'two\n',
    );
  });

  it('kills a running job, and publishes its HTTP port on 127.0.0.1', async () => {
    const s = spec('echo served > /tmp/index.html && exec httpd -f -p 8080 -h /tmp', {
      httpPort: 8080,
    });
    await driver.start(s);
    await until(s.id, 'running');
    let endpoint = await driver.endpoint(s.id);
    for (let i = 0; !endpoint && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      endpoint = await driver.endpoint(s.id);
    }
    expect(endpoint?.host).toBe('127.0.0.1');
    const res = await fetch(`http://127.0.0.1:${endpoint!.port}/index.html`);
    expect(await res.text()).toBe('served\n');
    await driver.kill(s.id);
    expect((await driver.observe(s.id)).state).toBe('exited');
    expect(await driver.endpoint(s.id)).toBeNull();
  });

  it('samples stats, execs, and counts running jobs against the engine capacity', async () => {
    const [idle] = await driver.capacity();
    expect(idle.cpu).toBeGreaterThan(0);
    expect(idle.memory).toBeGreaterThan(0);
    const s = spec('sleep 60', { env: { ANSWER: '42' } });
    await driver.start(s);
    await until(s.id, 'running');
    const [busy] = await driver.capacity();
    expect(idle.availableCpu - busy.availableCpu).toBeCloseTo(0.5);
    const abort = new AbortController();
    const samples = [];
    for await (const sample of driver.stats(s.id, abort.signal)) {
      samples.push(sample);
      if (samples.length === 2) abort.abort();
    }
    expect(samples[1].memoryBytes).toBeGreaterThan(0);
    expect(await sh(s.id, 'echo $ANSWER; echo err >&2; exit 3')).toEqual({
      out: '42\nerr\n',
      code: 3,
    });
    // A running job takes nothing off the node: the scheduler counts Orrery's own jobs.
    const info = JSON.parse(dockerd.docker(['info', '--format', '{{json .}}'])) as {
      Name: string;
      NCPU: number;
      MemTotal: number;
    };
    const engineNode = { name: info.Name, pool: 'local', cpu: info.NCPU, memory: info.MemTotal };
    expect((await driver.nodes()).map(({ gpus: _, ...n }) => n)).toEqual([engineNode]);
    // A new server finds the job by its label. Its GPUs as a STAND-IN description states them
    // (ORRERY_GPU_DESCRIPTION): the engine passes NVIDIA's only, so AMD's are not offered.
    const later = await DockerDriver.connect({
      dataDir,
      dockerHost: dockerd.host,
      network,
      gpus: { nvidia: { count: 2, model: 'L4' }, amd: { count: 1 } },
    });
    try {
      expect(await later.list()).toContain(s.id);
      expect((await later.observe(s.id)).state).toBe('running');
      expect(await later.nodes()).toEqual([{ ...engineNode, gpus: { nvidia: 2 } }]);
    } finally {
      await later.close();
    }
    await driver.kill(s.id);
  });

  /** `nc` to each host:port from the container; prints `reached` for each that accepted. */
  const probe = (targets: string[]) =>
    targets
      .map((t) => `nc -w 2 ${t.replace(':', ' ')} </dev/null && echo "reached ${t}";`)
      .join(' ');

  it('keeps containers from every service of the host, on the bridge gateway and on 0.0.0.0', async () => {
    expect(driver.warning).toBeUndefined();
    const s = spec('sleep 60');
    await driver.start(s);
    await until(s.id, 'running');
    // Listed once it is up, with a container on it.
    const bridge = bridgeName();
    const gateway = networkInterfaces()[bridge]!.find((a) => a.family === 'IPv4')!.address;
    const other = Object.entries(networkInterfaces())
      .filter(([name]) => name !== bridge && !name.startsWith('br-') && name !== 'docker0')
      .flatMap(([, addrs]) => addrs ?? [])
      .find((a) => a.family === 'IPv4' && !a.internal)?.address;
    const accepted: string[] = [];
    const listen = (host: string) =>
      new Promise<Server>((resolve) => {
        const srv = createServer((c) => {
          accepted.push(host);
          c.destroy();
        });
        srv.listen(0, host, () => resolve(srv));
      });
    const servers = [await listen('0.0.0.0'), await listen(gateway)];
    const [anyPort, gwPort] = servers.map((srv) => (srv.address() as AddressInfo).port);
    try {
      // The host itself reaches both: they listen.
      expect(await listening(anyPort, 500, gateway)).toBe(true);
      expect(await listening(gwPort, 500, gateway)).toBe(true);
      accepted.length = 0;
      const targets = [`${gateway}:${anyPort}`, `${gateway}:${gwPort}`];
      if (other) targets.push(`${other}:${anyPort}`);
      const { out } = await sh(s.id, probe(targets));
      expect(out).not.toContain('reached');
      expect(out).toContain('Connection refused');
      expect(accepted).toEqual([]);
      await driver.kill(s.id);
    } finally {
      servers.forEach((srv) => srv.close());
    }
  });

  it('keeps containers from each other, while the ingress reaches them from the host', async () => {
    const served = spec('echo served > /tmp/index.html && exec httpd -f -p 8080 -h /tmp', {
      httpPort: 8080,
    });
    const prober = spec('sleep 60');
    await driver.start(served);
    await driver.start(prober);
    await until(served.id, 'running');
    await until(prober.id, 'running');
    let endpoint = await driver.endpoint(served.id);
    for (let i = 0; !endpoint && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      endpoint = await driver.endpoint(served.id);
    }
    const res = await fetch(`http://${endpoint!.host}:${endpoint!.port}/index.html`);
    expect(await res.text()).toBe('served\n');
    const [info] = JSON.parse(dockerd.docker(['inspect', `orrery-job-${served.id}`]));
    const address = info.NetworkSettings.Networks[network].IPAddress as string;
    // The served container itself answers on that address: the probe would see it.
    expect((await sh(served.id, probe([`${address}:8080`]))).out).toContain('reached');
    const { out } = await sh(prober.id, probe([`${address}:8080`]));
    expect(out).not.toContain('reached');
    expect(out).toContain('timed out');
    await Promise.all([driver.kill(served.id), driver.kill(prober.id)]);
  });

  it('lets the project’s jobs reach a job’s port through its relay, and nothing else of the host', async () => {
    const project = 'default/acme/vision';
    // -v: httpd logs each connection it gets.
    const served = spec('echo relayed > /tmp/index.html && exec httpd -f -v -p 8080 -h /tmp', {
      httpPort: 8080,
      project,
    });
    // Asked before the job starts, as the apps service does for a sibling's env.
    const relay = (await driver.reachFromJobs(served.id))!;
    const mate = spec('sleep 60', { project });
    const strangers = ['default/acme/other', 'default/other-org/vision', undefined].map((p) =>
      spec('sleep 60', { project: p }),
    );
    for (const s of [served, mate, ...strangers]) await driver.start(s);
    for (const s of [served, mate, ...strangers]) await until(s.id, 'running');
    const gateway = networkInterfaces()[bridgeName()]!.find((a) => a.family === 'IPv4')!.address;
    expect(relay.host).toBe(gateway);
    while (!(await driver.endpoint(served.id))) await new Promise((r) => setTimeout(r, 50));
    // busybox's wget (static glibc) crashes in these containers: HTTP/1.0 by hand through nc.
    const get = async (id: string, port = relay.port) =>
      (
        await sh(
          id,
          `printf 'GET /index.html HTTP/1.0\\r\\n\\r\\n' | nc -w 3 ${relay.host} ${port}; echo "exit $?"`,
        )
      ).out;
    expect(await get(mate.id)).toMatch(/^HTTP\/1\.[01] 200 OK\r\n[^]*\r\n\r\nrelayed\nexit 0\n$/);
    // Reset at once: busybox's nc reads nothing (and says so when it was still writing).
    for (const s of strangers)
      expect(await get(s.id)).toMatch(
        /^exit [01]\n(nc: write error: Connection reset by peer\n)?$/,
      );
    // The job served one request, the project's, which came from the relay on the gateway.
    const servedLog = await text(
      await driver.logs(served.id, { follow: false, timestamps: false }),
    );
    expect(servedLog.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^\\[::ffff:${gateway.replaceAll('.', '\\.')}\\]:\\d+: response:200$`),
      ),
    ]);
    // The host's other ports on the same address stay closed, a listening one included.
    const other = createServer((c) => c.destroy());
    await new Promise<void>((ok) => other.listen(0, gateway, ok));
    try {
      const port = (other.address() as AddressInfo).port;
      expect(await get(mate.id, port)).toMatch(/refused/);
    } finally {
      other.close();
    }
    // A later server opens the relay again on its port, and it still serves the project.
    await driver.close();
    driver = await DockerDriver.connect({
      dataDir,
      dockerHost: dockerd.host,
      network,
      killGraceMs: 1000,
    });
    expect(await driver.reachFromJobs(served.id)).toEqual(relay);
    expect(await get(mate.id)).toContain('relayed');
    // Gone with the job: the port is closed to the project too.
    await driver.kill(served.id);
    expect(await driver.reachFromJobs(served.id)).toBeNull();
    expect(await get(mate.id)).toMatch(/refused/);
    await Promise.all([mate, ...strangers].map((s) => driver.kill(s.id)));
  });

  it('refuses privileged jobs, and volumes that are not storage or lead through a link', async () => {
    const refused = async (extra: Partial<JobSpec>, message: RegExp) => {
      const s = spec('true', extra);
      await expect(driver.start(s)).rejects.toThrow(message);
      expect(await driver.observe(s.id)).toEqual({ state: 'missing' });
    };
    await refused({ privileged: true }, /Privileged jobs are refused/);
    // A job wrote links into its storage folder: a later volume there must not follow them.
    const folder = join(dataDir, 'storage', 'acme');
    mkdirSync(folder, { recursive: true });
    const socket = new URL(dockerd.host).pathname;
    symlinkSync(socket, join(folder, 'docker.sock'));
    symlinkSync('/', join(folder, 'root'));
    const mount = (hostPath: string) => ({
      mounts: [{ hostPath, dstPath: '/mnt', readOnly: false }],
    });
    await refused(mount(join(folder, 'docker.sock')), /symbolic link/);
    await refused(mount(join(folder, 'root')), /symbolic link/);
    await refused(mount(socket), /not a storage folder/);
    await refused(mount(join(dataDir, 'registry')), /not a storage folder/);
    await refused(mount(join(dataDir, 'storage', '..', 'pgdata')), /not a storage folder/);
  });

  it('says when it cannot isolate the network: the host’s', async () => {
    const shared = await DockerDriver.connect({
      dataDir,
      dockerHost: dockerd.host,
      network: 'host',
    });
    await shared.close();
    expect(shared.warning).toMatch(/share this machine's network/);
  });

  it.skipIf(!existsSync(REGISTRY_BINARY))(
    'saves the container as an image, pushed through Orrery with NDJSON progress ending in aux',
    async () => {
      // The registry listens on a unix socket only: the engine pushes through Orrery's /v2/.
      const server = await startTestServer({}, { listen: true });
      try {
        const { owner } = await tenancy(server);
        const s = spec('echo made > /tmp/made; sleep 60');
        await driver.start(s);
        await until(s.id, 'running');
        const image = `${new URL(server.url).host}/acme/vision/saved:v1`;
        const progress: SaveProgress[] = [];
        const auth = { username: owner.username, password: owner.token };
        for await (const p of driver.save(s.id, image, auth)) progress.push(p);
        expect(progress[0]).toMatchObject({
          status: 'CommitStarted',
          details: { image, container: expect.stringMatching(/^[0-9a-f]{64}$/) },
        });
        expect(progress[1]).toEqual({ status: 'CommitFinished' });
        expect(progress.filter((p) => p.error)).toEqual([]);
        expect(progress.at(-1)?.aux).toMatchObject({ Tag: 'v1', Digest: expect.any(String) });
        const tags = await fetch(`${server.url}/v2/acme/vision/saved/tags/list`, {
          headers: { authorization: basicAuth(owner.username, owner.token) },
        });
        expect(await tags.json()).toMatchObject({ tags: ['v1'] });
        await driver.kill(s.id);
      } finally {
        await server.stop();
      }
    },
  );
});
