import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeStandIn } from '../../test/kube-stand-in.js';
import { kubeClient } from './client.js';
import { KubernetesDriver } from './driver.js';
import { fullSpec, standInKubeconfig } from '../../test/kube-fixtures.js';

/**
 * The driver's calls, against KubeStandIn: a STAND-IN for the Kubernetes API server that
 * answers the API's documented shapes and validates every object it is sent against the
 * Kubernetes 1.32 OpenAPI schema. No real cluster runs here (docs/runtimes.md).
 */
describe('kubernetes driver against an API server stand-in', () => {
  let api: KubeStandIn;
  let dir: string;
  let driver: KubernetesDriver;
  let app: Server;
  const spec = fullSpec();
  const pod = `orrery-${spec.id}`;

  beforeAll(async () => {
    api = await new KubeStandIn().start();
    dir = await mkdtemp(join(tmpdir(), 'orrery-kube-'));
    // A kubeconfig as `kubectl config view` writes one: the driver reads its context and namespace.
    await writeFile(join(dir, 'kubeconfig'), standInKubeconfig(api.url));
    await writeFile(join(dir, 'secret-0'), 'key-bytes');
    // The "container" behind the Pod's HTTP port, reached through the port-forward.
    app = createServer((_req, res) => res.end('hello from the job'));
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    api.ports.set(pod, (app.address() as { port: number }).port);
    const kube = {
      configFile: join(dir, 'kubeconfig'),
      context: 'jobs',
      poolLabel: 'orrery.io/node-pool',
      preemptibleTaint: 'orrery.io/preemptible',
      storageClaim: 'orrery-storage',
    };
    driver = await KubernetesDriver.connect({ dataDir: dir, killGraceMs: 5000, kube });
  });

  afterAll(async () => {
    await driver?.close();
    await api?.stop();
    app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the kubeconfig’s context and namespace, and refuses an unknown context', () => {
    expect(api.requests[0]).toMatchObject({
      method: 'GET',
      path: '/api/v1/namespaces/orrery-jobs/pods',
    });
    expect(() =>
      kubeClient({
        configFile: join(dir, 'kubeconfig'),
        context: 'nope',
        poolLabel: 'x',
        preemptibleTaint: 'y',
      }),
    ).toThrow('ORRERY_KUBE_CONTEXT: the kubeconfig has no context nope');
  });

  it('starts a job as a disk claim, Secrets, NetworkPolicy, Service and Pod, each valid', async () => {
    const changed: string[] = [];
    driver.onChange((id) => changed.push(id));
    const s = {
      ...spec,
      mounts: spec.mounts.map((m) =>
        m.source?.kind === 'secret' ? { ...m, hostPath: join(dir, 'secret-0') } : m,
      ),
    };
    await driver.start(s);
    const posts = api.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => `${r.body!.kind} ${r.body!.metadata.name}`)).toEqual([
      'PersistentVolumeClaim orrery-disk-1234',
      `Secret ${pod}-secrets`,
      `Secret ${pod}-pull`,
      `NetworkPolicy ${pod}`,
      `Service ${pod}`,
      `Pod ${pod}`,
    ]);
    const policy = posts[3]!.body as unknown as { spec: { ingress: Array<{ from: unknown[] }> } };
    expect(policy.spec.ingress[0]!.from).toHaveLength(2);
    expect(await driver.list()).toEqual([spec.id]);
    await expect.poll(() => changed.includes(spec.id)).toBe(true);
    api.logs.set(
      pod,
      '2026-01-01T00:00:01.000000000Z first line\n2026-01-01T00:00:02.000000000Z second line\n',
    );
  });

  it('a start the API server refuses leaves nothing behind and says why', async () => {
    const bad = fullSpec({ id: 'job-bad', mounts: [], registryAuth: undefined, secretEnv: [] });
    const quota =
      'pods "orrery-job-bad" is forbidden: exceeded quota: compute, requested: nvidia.com/gpu=2, used: nvidia.com/gpu=0, limited: nvidia.com/gpu=1';
    api.refuseNext = { code: 403, reason: 'Forbidden', message: quota };
    await expect(driver.start(bad)).rejects.toThrow(
      `The Kubernetes API server refused the job: ${quota}`,
    );
    expect(api.store.get('services')!.has('orrery-job-bad')).toBe(false);
    expect(api.store.get('networkpolicies')!.has('orrery-job-bad')).toBe(false);
  });

  it('shows a pending Pod’s event as its reason, then follows it running', async () => {
    api.addEvent(pod, {
      type: 'Warning',
      reason: 'FailedScheduling',
      message: '0/2 nodes are available: 2 Insufficient nvidia.com/gpu.',
    });
    expect(await driver.observe(spec.id)).toEqual({
      state: 'starting',
      reason: 'FailedScheduling',
      message: '0/2 nodes are available: 2 Insufficient nvidia.com/gpu.',
    });
    const startedAt = new Date('2026-01-01T00:00:00Z');
    api.setStatus(pod, {
      phase: 'Running',
      containerStatuses: [
        { name: 'job', state: { running: { startedAt: startedAt.toISOString() } } },
      ],
    });
    expect(await driver.observe(spec.id)).toEqual({ state: 'running', startedAt });
  });

  it('reaches the HTTP port through a port-forward of the API server', async () => {
    const at = await driver.endpoint(spec.id);
    expect(at?.host).toBe('127.0.0.1');
    const res = await fetch(`http://${at!.host}:${at!.port}/`);
    expect(await res.text()).toBe('hello from the job');
    expect(
      api.requests.some((r) => r.method === 'WS' && r.path.endsWith(`/pods/${pod}/portforward`)),
    ).toBe(true);
    expect(await driver.reachFromJobs(spec.id)).toEqual({
      host: `${pod}.orrery-jobs.svc`,
      port: 8080,
    });
  });

  it('streams stats from the metrics API', async () => {
    api.metrics.set(pod, { cpu: '250000000n', memory: '1Gi' });
    const abort = new AbortController();
    for await (const s of driver.stats(spec.id, abort.signal)) {
      expect(s).toMatchObject({ cpu: 0.25, memoryBytes: 2 ** 30 });
      abort.abort();
    }
  });

  it('execs and attaches through the API server', async () => {
    const run = await driver.exec(spec.id, {
      command: ['sh', '-c', 'exit 3'],
      tty: false,
      stdin: false,
    });
    expect(await text(run.stdout)).toBe('sh -c exit 3\n');
    expect(await run.exitCode).toBe(3);
    const shell = await driver.exec(spec.id, { command: ['cat'], tty: true, stdin: true });
    shell.resize?.(40, 120);
    const out = text(shell.stdout);
    shell.stdin!.write('typed\x04');
    expect(await out).toBe('cat\ntyped\x04');
    expect(await shell.exitCode).toBe(0);
    const attached = await driver.attach(spec.id, { command: [], tty: true, stdin: true });
    const echoed = text(attached.stdout);
    attached.stdin!.write('to the job\x04');
    expect(await echoed).toBe('to the job\x04');
    api.setStatus(pod, {
      phase: 'Failed',
      containerStatuses: [
        {
          name: 'job',
          state: {
            terminated: { exitCode: 2, reason: 'Error', finishedAt: new Date().toISOString() },
          },
        },
      ],
    });
    expect(await attached.exitCode).toBe(2);
  });

  it('reads an exited Pod, keeps its log past removal, and deletes what it made', async () => {
    expect(await driver.observe(spec.id)).toMatchObject({ state: 'exited', exitCode: 2 });
    await driver.remove(spec.id);
    for (const kind of ['pods', 'services', 'networkpolicies', 'secrets']) {
      expect([...api.store.get(kind)!.keys()].filter((k) => k.startsWith(pod))).toEqual([]);
    }
    expect(api.store.get('persistentvolumeclaims')!.has('orrery-disk-1234')).toBe(true);
    // Deleting the disk in Orrery deletes its claim (the disks service calls removeDisk).
    await driver.removeDisk('disk-1234');
    expect(api.store.get('persistentvolumeclaims')!.has('orrery-disk-1234')).toBe(false);
    expect(await driver.observe(spec.id)).toEqual({ state: 'missing' });
    const log = await text(await driver.logs(spec.id, { follow: false, timestamps: true }));
    expect(log).toContain('second line');
    expect(log).toMatch(/^2026-01-01T00:00:01\.000Z first line/);
  });

  it('finds the jobs a previous server left, and reports node pools', async () => {
    await driver.start({ ...fullSpec({ id: 'job-left', mounts: [], secretEnv: [] }) });
    const again = await KubernetesDriver.connect({
      dataDir: dir,
      kube: {
        configFile: join(dir, 'kubeconfig'),
        context: 'jobs',
        poolLabel: 'orrery.io/node-pool',
        preemptibleTaint: 'x',
      },
    });
    try {
      expect(await again.list()).toEqual(['job-left']);
      api.nodes = [
        {
          metadata: { name: 'g1', labels: { 'orrery.io/node-pool': 'gpu' } },
          status: {
            allocatable: { cpu: '16', memory: '64Gi', 'nvidia.com/gpu': '2' },
            conditions: [{ type: 'Ready', status: 'True' }],
          },
        },
      ];
      const pools = await again.capacity();
      expect(pools).toMatchObject([{ name: 'gpu', cpu: 16, gpu: { vendor: 'nvidia', count: 2 } }]);
      // The Pod left running asks for 2.5 CPU on no node yet: nothing is taken from g1.
      expect(pools[0]!.availableCpu).toBe(16);
    } finally {
      await again.close();
    }
  });

  it('offers each ready node less what other Pods request, its own job Pods not taken off', async () => {
    api.nodes = [
      {
        metadata: { name: 'g1', labels: { 'orrery.io/node-pool': 'gpu' } },
        status: {
          allocatable: { cpu: '16', memory: '64Gi', 'nvidia.com/gpu': '2' },
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      },
      {
        metadata: { name: 'c1' },
        spec: { unschedulable: true },
        status: {
          allocatable: { cpu: '4', memory: '8Gi' },
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      },
    ];
    api.otherPods = [
      {
        metadata: { name: 'notebook', namespace: 'research' },
        spec: {
          nodeName: 'g1',
          containers: [
            {
              name: 'nb',
              image: 'jupyter',
              resources: { requests: { cpu: '3', memory: '4Gi', 'nvidia.com/gpu': '1' } },
            },
          ],
        },
        status: { phase: 'Running' },
      },
    ];
    // The job Pod the test before left (its own), placed on g1 as a scheduler would.
    const job = api.store.get('pods')!.get('orrery-job-left')!;
    job.spec = { ...(job.spec as object), nodeName: 'g1' };
    try {
      expect(await driver.nodes()).toEqual([
        { name: 'g1', pool: 'gpu', cpu: 13, memory: 60 * 2 ** 30, gpus: { nvidia: 1 } },
      ]);
    } finally {
      api.otherPods = [];
    }
  });

  it('runs a job of several workers as a Pod each: one status, merged logs, summed stats, exec and attach into a chosen worker', async () => {
    const gang = fullSpec({
      id: 'job-gang',
      workers: 2,
      mounts: [],
      secretEnv: [],
      registryAuth: undefined,
    });
    const [rank0, rank1] = ['orrery-job-gang', 'orrery-job-gang-w1'];
    const before = api.requests.length;
    await driver.start(gang);
    const posts = api.requests.slice(before).filter((r) => r.method === 'POST');
    expect(posts.map((r) => `${r.body!.kind} ${r.body!.metadata.name}`)).toEqual([
      `NetworkPolicy ${rank0}`,
      `Service ${rank0}`,
      `Service ${rank0}-w`,
      `Pod ${rank0}`,
      `Pod ${rank1}`,
    ]);
    expect((await driver.list()).filter((id) => id === gang.id)).toEqual([gang.id]);
    const startedAt = new Date('2026-01-01T00:00:00Z');
    const running = {
      phase: 'Running',
      containerStatuses: [
        { name: 'job', state: { running: { startedAt: startedAt.toISOString() } } },
      ],
    };
    api.setStatus(rank0, running);
    // Running once every worker runs.
    expect(await driver.observe(gang.id)).toMatchObject({ state: 'starting' });
    api.setStatus(rank1, running);
    expect(await driver.observe(gang.id)).toEqual({ state: 'running', startedAt });

    api.logs.set(
      rank0,
      '2026-01-01T00:00:01.000000000Z zero\n2026-01-01T00:00:03.000000000Z end\n',
    );
    api.logs.set(rank1, '2026-01-01T00:00:02.000000000Z one\n');
    const log = async (worker?: number) =>
      text(await driver.logs(gang.id, { follow: false, timestamps: false, worker }));
    expect(await log()).toBe('zero\none\nend\n');
    expect(await log(1)).toBe('one\n');
    api.metrics.set(rank0, { cpu: '250m', memory: '1Gi' });
    api.metrics.set(rank1, { cpu: '500m', memory: '3Gi' });
    const firstSample = async (worker?: number) => {
      const abort = new AbortController();
      for await (const sample of driver.stats(gang.id, abort.signal, worker)) {
        abort.abort();
        return sample;
      }
    };
    // The workers' added up, or one worker's own.
    expect(await firstSample()).toMatchObject({ cpu: 0.75, memoryBytes: 4 * 2 ** 30 });
    expect(await firstSample(1)).toMatchObject({ cpu: 0.5, memoryBytes: 3 * 2 ** 30 });
    expect(await firstSample(0)).toMatchObject({ cpu: 0.25, memoryBytes: 2 ** 30 });

    // Exec and attach reach the Pod of the worker asked for, rank 0's without one.
    const streamedTo = () => {
      const ws = api.requests.filter((r) => r.method === 'WS');
      return ws.map((r) => r.path.split('/').slice(-2).join(' '));
    };
    const exec = async (worker?: number) => {
      const run = await driver.exec(gang.id, {
        command: ['hostname'],
        tty: false,
        stdin: false,
        worker,
      });
      expect(await text(run.stdout)).toBe('hostname\n');
      return run.exitCode;
    };
    expect(await exec(1)).toBe(0);
    expect(streamedTo().at(-1)).toBe(`${rank1} exec`);
    expect(await exec()).toBe(0);
    expect(streamedTo().at(-1)).toBe(`${rank0} exec`);
    const attached = await driver.attach(gang.id, {
      command: [],
      tty: true,
      stdin: true,
      worker: 1,
    });
    expect(streamedTo().at(-1)).toBe(`${rank1} attach`);
    const echoed = text(attached.stdout);
    attached.stdin!.write('to worker 1\x04');
    expect(await echoed).toBe('to worker 1\x04');

    // A worker fails: the others' Pods go, the job fails saying which.
    api.setStatus(rank1, {
      phase: 'Failed',
      containerStatuses: [
        {
          name: 'job',
          state: {
            terminated: { exitCode: 3, reason: 'Error', finishedAt: new Date().toISOString() },
          },
        },
      ],
    });
    // The session attached to worker 1 ends with its exit code.
    expect(await attached.exitCode).toBe(3);
    await driver.observe(gang.id);
    await expect.poll(() => api.store.get('pods')!.has(rank0)).toBe(false);
    expect(await driver.observe(gang.id)).toMatchObject({
      state: 'exited',
      exitCode: 3,
      message: 'Worker 1 of 2 exited with code 3; the other workers were stopped',
    });
    await driver.remove(gang.id);
    for (const kind of ['pods', 'services', 'networkpolicies']) {
      expect([...api.store.get(kind)!.keys()].filter((k) => k.startsWith(rank0))).toEqual([]);
    }
    // The logs stay, merged and each worker's.
    expect(await log()).toBe('zero\none\nend\n');
    expect(await log(0)).toBe('zero\nend\n');
  });
});
