import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { JobCreateFromPreset } from '@orrery/contract';
import { describe, expect, it } from 'vitest';
import type { OutputContext } from '../../runner.js';
import { validateInput } from '../../input-schema.js';
import { DOCKER_ONLY_RUNNERS } from './apps.js';
import { TEMPLATE_INPUTS as INPUTS, planContext } from '../../../../test/app-plans.js';

const TEMPLATES = fileURLToPath(new URL('..', import.meta.url));
const read = (name: string, file: string) =>
  readFileSync(`${TEMPLATES}/${name}/1.0.0/${file}`, 'utf8');

const ctx = planContext();
const running: OutputContext = {
  ...ctx,
  endpoints: {
    main: {
      internal: { host: 'job-1.acme--vision', port: 8080, protocol: 'http' },
      external: {
        host: 'job-1.jobs.orrery.example',
        port: 443,
        protocol: 'https',
        basePath: '/',
      },
    },
  },
};

/** Each one-container app: its health path and where the instance's home is mounted. */
const SERVED: Record<string, { health: string; home: string }> = {
  'jupyter-lab': { health: '/api/status', home: '/home/jovyan' },
  fooocus: { health: '/', home: '/content/data' },
  mlflow: { health: '/health', home: '/mlflow' },
  'private-gpt': { health: '/health', home: '/home/worker/app/local_data' },
  pycharm: { health: '/', home: '/home/projector-user' },
  'stable-diffusion': { health: '/', home: '/app/stable-diffusion-webui/models' },
  'text-embeddings-inference': { health: '/health', home: '/data' },
  weaviate: { health: '/v1/.well-known/ready', home: '/var/lib/weaviate' },
};
const byName = Object.fromEntries(DOCKER_ONLY_RUNNERS.map((r) => [r.template, r]));

describe('docker-only templates', () => {
  it('covers every docker-only template of the catalogue', () => {
    expect(Object.keys(byName).sort()).toEqual([...Object.keys(SERVED), 'dify'].sort());
  });

  it.each(Object.keys(SERVED).map((name) => [name, byName[name]] as const))(
    '%s: a valid job of its public image on the docker runtime, outputs as its schema says',
    async (name, runner) => {
      const manifest = read(name, 'manifest.yaml');
      expect(manifest).toMatch(new RegExp(`^runner: ${name}$`, 'm'));
      expect(manifest).toMatch(/^runtimes: \[docker, kubernetes\]$/m);
      expect(runner.runtimes).toEqual(['docker', 'kubernetes']);

      const input = INPUTS[name] ?? { preset: { name: 'cpu-small' } };
      const plan = await runner.plan(input, ctx);
      expect(plan.jobs).toHaveLength(1);
      const { body } = plan.jobs[0];
      // What the jobs API would accept, once the service adds the place.
      const wire = JobCreateFromPreset.safeParse({
        ...body,
        org_name: 'acme',
        project_name: 'vision',
      });
      expect(wire.success, JSON.stringify(wire.error?.issues)).toBe(true);
      expect(body.image).toMatch(/^[a-z0-9.-]+(\/[a-z0-9._-]+)+:[\w.-]+$/);
      expect(body.preset_name).toBe(input.preset_name ?? 'cpu-small');
      expect(body.http!.port).toBeGreaterThan(0);
      expect(plan.health).toEqual({ role: 'main', path: SERVED[name].health });
      expect(body.http!.health_check_path).toBe(SERVED[name].health);
      expect(body.volumes).toEqual([
        { src_storage_uri: ctx.home, dst_path: SERVED[name].home, read_only: false },
      ]);
      for (const uri of Object.values(body.secret_env)) expect(uri).toMatch(/^secret:[\w.-]+$/);

      const outputs = runner.outputs(input, running);
      const schema = JSON.parse(read(name, 'output.schema.json')) as { properties: object };
      expect(Object.keys(outputs).sort()).toEqual(Object.keys(schema.properties).sort());
      const inputSchema = JSON.parse(read(name, 'input.schema.json')) as { required: string[] };
      for (const field of inputSchema.required) expect(input).toHaveProperty(field);
      expect(validateInput(inputSchema, input)).toEqual([]);
    },
  );

  it('passes integrations and secrets to the container as Apolo names them', async () => {
    const gpt = (await byName['private-gpt'].plan(INPUTS['private-gpt'], ctx)).jobs[0].body;
    expect(gpt.env).toMatchObject({
      PGPT_LLM_API_BASE: 'http://job-2.acme--vision:8000/v1',
      PGPT_EMBEDDING_API_BASE: 'http://job-3.acme--vision:80',
      POSTGRES_HOST: 'job-9.acme--vision',
    });
    expect(gpt.secret_env).toEqual({ POSTGRES_PASSWORD: 'secret:pg-pw' });

    const tei = (
      await byName['text-embeddings-inference'].plan(INPUTS['text-embeddings-inference'], ctx)
    ).jobs[0].body;
    expect(tei.command).toBe('--model-id BAAI/bge-small-en-v1.5 --max-batch-tokens=16384');
    expect(tei.env).toEqual({ RUST_LOG: 'info' });
    expect(tei.secret_env).toEqual({ API_KEY: 'secret:tei-key', HF_TOKEN: 'secret:hf' });
    const out = byName['text-embeddings-inference'].outputs(
      INPUTS['text-embeddings-inference'],
      running,
    );
    expect(out.external_api).toMatchObject({
      host: 'job-1.jobs.orrery.example',
      protocol: 'https',
      base_path: '/',
      endpoint_url: '/v1/embeddings',
    });

    const pycharm = (await byName.pycharm.plan(INPUTS.pycharm, ctx)).jobs[0].body;
    expect(pycharm.http!.requires_auth).toBe(false);
    const mlflow = (
      await byName.mlflow.plan(
        { preset: { name: 'cpu-small' }, ingress_http: { auth: { type: 'no_auth' } } },
        ctx,
      )
    ).jobs[0].body;
    expect(mlflow.http!.requires_auth).toBe(false);
    expect(mlflow.volumes).toEqual([
      { src_storage_uri: ctx.home, dst_path: '/mlflow', read_only: false },
    ]);
  });

  it('jupyter-lab: served at the root of its own host, no token, the home its working directory', async () => {
    const runner = byName['jupyter-lab'];
    const input = {
      preset: { name: 'cpu-small' },
      extra_storage_mounts: {
        mounts: [
          {
            storage_uri: { path: 'storage:datasets' },
            mount_path: { path: '/mnt/data' },
            mode: { mode: 'r' },
          },
        ],
      },
      mlflow_integration: { internal_url: { host: 'job-5.acme--vision', port: 5000 } },
    };
    const plan = await runner.plan(input, { ...ctx, publicUrl: 'https://orrery.example/orrery/' });
    const [job] = plan.jobs;
    const { body } = job!;
    expect(body.working_dir).toBe('/home/jovyan');
    expect(body.volumes).toEqual([
      { src_storage_uri: ctx.home, dst_path: '/home/jovyan', read_only: false },
      { src_storage_uri: 'storage:datasets', dst_path: '/mnt/data', read_only: true },
    ]);
    expect(body.env).toEqual({
      PIP_USER: '1',
      MLFLOW_TRACKING_URI: 'http://job-5.acme--vision:5000',
    });
    // The image's entrypoint runs the command in a shell: the arguments it gets are what a real
    // shell makes of them. No base URL: JupyterLab serves at the root of the job's own host.
    expect(body.entrypoint).toBe('exec tini -g -- start.sh');
    const args = execFileSync('/bin/sh', ['-c', `printf '%s\\n' ${body.command}`], {
      env: { HOSTNAME: 'job-1' },
    })
      .toString()
      .trimEnd()
      .split('\n');
    expect(args).toEqual([
      'start-notebook.py',
      '--IdentityProvider.token=',
      '--PasswordIdentityProvider.hashed_password=',
      '--ServerApp.root_dir=/home/jovyan',
      '--ServerApp.allow_origin=*',
    ]);

    // Files of the user's own to work in: mounted, JupyterLab's root and working directory, a
    // path of any characters quoted for the shell. The home stays the user's home.
    const override = {
      ...input,
      jupyter_specific: {
        override_code_storage_mount: {
          storage_uri: { path: 'storage:code' },
          mount_path: { path: "/mnt/it's code" },
        },
      },
    };
    const schema = JSON.parse(read('jupyter-lab', 'input.schema.json')) as Record<string, unknown>;
    expect(validateInput(schema, override)).toEqual([]);
    const moved = (await runner.plan(override, ctx)).jobs[0].body;
    expect(moved.working_dir).toBe("/mnt/it's code");
    expect(moved.volumes.map((v) => v.dst_path)).toEqual([
      '/home/jovyan',
      "/mnt/it's code",
      '/mnt/data',
    ]);
    const root = execFileSync('/bin/sh', ['-c', `printf '%s\\n' ${moved.command}`], {
      env: { HOSTNAME: 'job-1' },
    }).toString();
    expect(root).toContain("--ServerApp.root_dir=/mnt/it's code\n");

    // Jobs of the project reach it at the same path as the browser does.
    const { app_url } = runner.outputs(input, running) as {
      app_url: { internal_url: { base_path: string }; external_url: { base_path: string } };
    };
    expect(app_url.internal_url.base_path).toBe('/lab');
    expect(app_url.external_url.base_path).toBe('/lab');
    // What a user opens is a notebook: a project reader may not (docs/apps.md).
    expect(runner.interactive).toBe('notebook');

    // Activity is the kernels', as for the jupyter template.
    const busy = new Response(JSON.stringify([{ execution_state: 'busy' }]));
    const asked: string[] = [];
    const asking = Date.now();
    const at = await runner.lastActivity!(async (_role, path) => {
      asked.push(path);
      return busy;
    }, running);
    expect(asked).toEqual(['/api/kernels']);
    // Busy kernels are active now: the time of the question, not one before it.
    expect(at!.getTime()).toBeGreaterThanOrEqual(asking);
  });

  it('weaviate: REST, GraphQL and gRPC (its second port) on the internal host', () => {
    const out = byName.weaviate.outputs(INPUTS.weaviate, running) as Record<
      string,
      { internal_url: Record<string, unknown> | null; external_url: Record<string, unknown> | null }
    >;
    expect(out.rest_endpoint.internal_url).toMatchObject({
      host: 'job-1.acme--vision',
      port: 8080,
      base_path: '/v1',
      api_type: 'rest',
    });
    expect(out.graphql_endpoint.external_url).toMatchObject({
      host: 'job-1.jobs.orrery.example',
      base_path: '/v1/graphql',
    });
    expect(out.grpc_endpoint).toEqual({
      internal_url: {
        host: 'job-1.acme--vision',
        port: 50051,
        protocol: 'http',
        timeout: 30,
        base_path: '/',
        api_type: 'grpc',
      },
      external_url: null,
    });
    expect(byName.weaviate.outputs(INPUTS.weaviate, { ...running, endpoints: {} })).toMatchObject({
      grpc_endpoint: { internal_url: null, external_url: null },
    });
  });
});
