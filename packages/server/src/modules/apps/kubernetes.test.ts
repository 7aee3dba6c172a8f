import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { JOB_SCOPE, call, tenancy } from '../../test/fixtures.js';
import { KubeStandIn } from '../../test/kube-stand-in.js';
import { standInKubeconfig } from '../../test/kube-fixtures.js';
import { awaitState, installApp, uninstallApp } from '../../test/app-instance.js';
import { objectName } from '../../runtime/kubernetes/names.js';
import { TEMPLATE_INPUTS, planContext } from '../../test/app-plans.js';
import { V1, deployInput } from '../../test/apps.js';
import { BUILT_IN_RUNNERS } from './templates/index.js';

/** The templates whose jobs run on Kubernetes, with an input each accepts. */
const ON_KUBE = BUILT_IN_RUNNERS.filter((r) => r.runtimes.includes('kubernetes'));
const INPUTS: Record<string, Record<string, unknown>> = {
  ...TEMPLATE_INPUTS,
  job: { image: 'ubuntu:24.04', preset_name: 'cpu-small', command: 'sleep 1d' },
  'orrery-deploy': deployInput('python -m http.server 8080'),
  postgresql: { postgres_config: { db_users: [{ name: 'analyst', db_names: ['sales'] }] } },
};

/**
 * App instances on the kubernetes runtime, against KubeStandIn: a STAND-IN for the Kubernetes
 * API server (none runs on this machine kind), which validates every object the driver sends
 * against the pinned Kubernetes OpenAPI schema and refuses an invalid one with 422, as the API
 * server would. The test plays the kubelet: it moves the Pod to Running and serves its HTTP
 * port. No real cluster runs here (docs/runtimes.md).
 */
describe('apps on the kubernetes runtime (API server stand-in)', () => {
  let api: KubeStandIn;
  let dir: string;
  let s: TestServer;
  let owner: TestUser;
  let container: Server;

  beforeAll(async () => {
    api = await new KubeStandIn().start();
    api.nodes = [
      {
        metadata: { name: 'n1', labels: { 'orrery.io/node-pool': 'cpu' } },
        status: {
          allocatable: { cpu: '32', memory: '128Gi', 'nvidia.com/gpu': '2' },
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      },
    ];
    dir = await mkdtemp(join(tmpdir(), 'orrery-kube-apps-'));
    await writeFile(join(dir, 'kubeconfig'), standInKubeconfig(api.url));
    // What the Pod's container would serve on its HTTP port, reached through a port-forward.
    container = createServer((_req, res) => res.end('hello from the app'));
    await new Promise<void>((r) => container.listen(0, '127.0.0.1', r));
    s = await startTestServer({
      ORRERY_RUNTIME: 'kubernetes',
      ORRERY_KUBE_CONFIG: join(dir, 'kubeconfig'),
      ORRERY_KUBE_CONTEXT: 'jobs',
      ORRERY_KUBE_STORAGE_CLAIM: 'orrery-storage',
    });
    ({ owner } = await tenancy(s));
  });

  afterAll(async () => {
    await s?.stop();
    await api?.stop();
    container?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('offers Install for the templates whose jobs are images, and says why not for the rest', async () => {
    const r = await call(s, 'GET', `${V1}/templates`, owner);
    expect(r.status).toBe(200);
    const reason = (name: string) =>
      r.body.find((t: { name: string }) => t.name === name).unavailable_reason as string | null;
    for (const { template } of ON_KUBE) expect(reason(template), template).toBeNull();
    expect(reason('dify')).toBe(
      'Dify needs the docker runtime; this installation runs jobs on kubernetes',
    );
    expect(reason('jupyter')).toMatch(
      /needs the process or slurm runtime; this installation runs jobs on kubernetes$/,
    );
  });

  it('installs the job template, follows it running and healthy, and uninstalls it', async () => {
    const install = installApp(s, owner, 'job', 'on-kube', {
      image: 'nginx:1.27',
      preset_name: 'cpu-small',
      http: { port: 8080, requires_auth: true },
    });
    // The kubelet's part: once the driver has created the Pod, it runs and serves its port.
    const pod = await podOf(api);
    api.ports.set(pod, (container.address() as { port: number }).port);
    api.setStatus(pod, {
      phase: 'Running',
      containerStatuses: [
        { name: 'job', state: { running: { startedAt: new Date().toISOString() } } },
      ],
    });
    const app = await install;
    expect(app.jobIds.map(objectName)).toEqual([pod]);
    const spec = api.store.get('pods')!.get(pod)!.spec as { containers: { image: string }[] };
    expect(spec.containers[0]!.image).toBe('nginx:1.27');
    await uninstallApp(s, owner, app);
    expect(api.store.get('pods')!.has(pod)).toBe(false);
    await awaitState(s, owner, app.id, 'uninstalled');
  }, 120_000);

  it('runs the job template asking for several workers as a Pod per worker', async () => {
    const r = await call(s, 'POST', `${V1}/instances`, owner, {
      template_name: 'job',
      display_name: 'two-workers',
      input: { image: 'ubuntu:24.04', preset_name: 'cpu-small', nodes: 2, command: 'true' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const jobId = r.body.outputParams.jobId as string;
    const pods = [objectName(jobId), `${objectName(jobId)}-w1`];
    await until(
      () => pods.every((p) => api.store.get('pods')!.has(p)),
      async () => JSON.stringify((await call(s, 'GET', `/api/v1/jobs/${jobId}`, owner)).body),
    );
    for (const [rank, pod] of pods.entries()) {
      const spec = api.store.get('pods')!.get(pod)!.spec as {
        containers: { env: { name: string; value?: string }[] }[];
      };
      const env = Object.fromEntries(spec.containers[0]!.env.map((e) => [e.name, e.value]));
      expect(env).toMatchObject({ RANK: String(rank), WORLD_SIZE: '2' });
    }
    const gone = await call(s, 'DELETE', `${V1}/instances/${r.body.id}?force=true`, owner);
    expect(gone.body.state).toBe('uninstalled');
    await until(
      () => pods.every((p) => !api.store.get('pods')!.has(p)),
      async () => 'the Pods are still there',
    );
  });

  it.each(ON_KUBE.map((r) => [r.template, r] as const))(
    '%s: each job of its plan starts as objects the pinned schema accepts',
    async (name, runner) => {
      const plan = await runner.plan(
        INPUTS[name] ?? { preset: { name: 'cpu-small' } },
        planContext({ runtime: 'kubernetes' }),
      );
      expect(plan.jobs.length).toBeGreaterThan(0);
      for (const { body } of plan.jobs) {
        await secretsOf(s, owner, body);
        const created = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, {
          ...body,
          ...JOB_SCOPE,
        });
        expect(created.status, JSON.stringify(created.body)).toBe(202);
        const pod = objectName(created.body.id);
        // The stand-in refuses an object the schema does not accept (422): the job would fail.
        await until(
          () => api.store.get('pods')!.has(pod),
          async () => {
            const job = await call(s, 'GET', `/api/v1/jobs/${created.body.id}`, owner);
            return JSON.stringify(job.body.history ?? job.body);
          },
        );
        if (body.http) expect(api.store.get('services')!.has(pod)).toBe(true);
        expect((await call(s, 'DELETE', `/api/v1/jobs/${created.body.id}`, owner)).status).toBe(
          204,
        );
      }
    },
    120_000,
  );
});

type Body = {
  secret_env?: Record<string, string>;
  secret_volumes?: { src_secret_uri: string }[];
  http?: unknown;
};

/** The project secrets a job body names (`secret:KEY`), created if missing, as a user would have. */
async function secretsOf(s: TestServer, who: TestUser, body: Body) {
  const uris = [
    ...Object.values(body.secret_env ?? {}),
    ...(body.secret_volumes ?? []).map((v) => v.src_secret_uri),
  ];
  for (const uri of uris) {
    const key = uri
      .split('/')
      .at(-1)!
      .replace(/^secret:/, '');
    await call(s, 'POST', '/api/v1/secrets', who, { key, value: 'c2VjcmV0', ...JOB_SCOPE });
  }
}

async function until(done: () => boolean, why: () => Promise<string>) {
  for (let i = 0; i < 600 && !done(); i++) await new Promise((r) => setTimeout(r, 100));
  if (!done()) throw new Error(`no Pod: ${await why()}`);
}

/** The first Pod the driver creates, once it has. */
async function podOf(api: KubeStandIn): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const [name] = api.store.get('pods')!.keys();
    if (name) return name;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no Pod created: ${JSON.stringify(api.requests.slice(-5))}`);
}
