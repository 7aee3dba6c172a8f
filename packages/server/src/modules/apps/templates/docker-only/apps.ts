import type { AppEndpoint } from '../../runner.js';
import { jupyterRunner } from '../jupyter/runner.js';
import { appUrl, httpApi, mlflowEnv, storageMounts } from '../shared.js';
import { difyRunner } from './dify.js';
import { containerRunner, shellQuoted, type ContainerApp } from './runner.js';

export const JUPYTER_LAB_IMAGE = 'quay.io/jupyter/base-notebook:2024-12-02';
/** The image user's home: the instance's home is mounted there (notebooks, `~/.local`). */
const JOVYAN = '/home/jovyan';

type Input = Record<string, unknown>;
const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Input) : {});
const str = (v: unknown, fallback = '') => (typeof v === 'string' && v ? v : fallback);

/** `http://host:port/base` of a resolved integration (an `HttpApi`/`RestAPI` output). */
function urlOf(api: unknown, suffix = ''): string | undefined {
  const a = obj(api);
  if (!a.host) return undefined;
  const base = str(a.base_path, '/').replace(/\/$/, '');
  return `${str(a.protocol, 'http')}://${String(a.host)}:${String(a.port ?? 80)}${base}${suffix}`;
}

/** `Env[]` of the input (`{name, value}` with a string or an `ApoloSecret` value), split in two. */
function envList(v: unknown): { env: Record<string, string>; secrets: Record<string, string> } {
  const env: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  for (const item of Array.isArray(v) ? v : []) {
    const { name, value } = obj(item);
    if (typeof name !== 'string') continue;
    if (typeof value === 'string') env[name] = value;
    else if (obj(value).key) secrets[name] = `secret:${String(obj(value).key)}`;
  }
  return { env, secrets };
}

/** `{NAME: secret:<key>}` for an `ApoloSecret` of the input, nothing without one. */
function secretAs(name: string, secret: unknown): Record<string, string> {
  const key = obj(secret).key;
  return typeof key === 'string' && key ? { [name]: `secret:${key}` } : {};
}

const rest = (e: AppEndpoint | undefined, path = '/') => ({
  internal_url: e ? httpApi(e, 'internal', path, 'rest') : null,
  external_url: e ? httpApi(e, 'external', path, 'rest') : null,
});

/** Apolo's `jupyter_specific.override_code_storage_mount`: Files of the user's own to work in. */
const codeMount = (input: Input) =>
  storageMounts({ mounts: [obj(obj(input.jupyter_specific).override_code_storage_mount)] });

/** Where JupyterLab works: the override's mount path, else the home. */
const codeDirOf = (input: Input) => codeMount(input)[0]?.dst_path ?? JOVYAN;

/** Weaviate's gRPC port, beside its HTTP one. */
const WEAVIATE_GRPC_PORT = 50051;

/**
 * Weaviate's gRPC endpoint: its second port, on the job's internal host. Inside the project
 * only: the ingress forwards HTTP/1.1 to the job's HTTP port, and gRPC needs HTTP/2.
 */
const grpc = (e: AppEndpoint | undefined) => ({
  internal_url: e ? { ...httpApi(e, 'internal', '/', 'grpc'), port: WEAVIATE_GRPC_PORT } : null,
  external_url: null,
});

export const DOCKER_ONLY_APPS: ContainerApp[] = [
  {
    template: 'jupyter-lab',
    image: JUPYTER_LAB_IMAGE,
    port: 8888,
    health: '/api/status',
    dataPath: JOVYAN,
    workingDir: (input) => codeDirOf(input),
    // Served at the root of its own host, JupyterLab's default base URL. The arguments are
    // quoted for a shell, hence the image's entrypoint restated (exec: tini stays PID 1).
    entrypoint: 'exec tini -g -- start.sh',
    interactive: 'notebook',
    // No token or password: the ingress authenticates (apolo_auth) before a request gets here.
    command: (input) =>
      [
        'start-notebook.py',
        "--IdentityProvider.token=''",
        "--PasswordIdentityProvider.hashed_password=''",
        `--ServerApp.root_dir=${shellQuoted(codeDirOf(input))}`,
        "--ServerApp.allow_origin='*'",
      ].join(' '),
    // `pip install` goes to ~/.local, in the home, so packages survive a reinstall.
    env: (input) => ({ PIP_USER: '1', ...mlflowEnv(input.mlflow_integration) }),
    extraVolumes: (input) => [...codeMount(input), ...storageMounts(input.extra_storage_mounts)],
    outputs: (_i, e) => ({ app_url: appUrl(e, '/lab') }),
    lastActivity: jupyterRunner.lastActivity,
  },
  {
    template: 'fooocus',
    image: 'ghcr.io/lllyasviel/fooocus:latest',
    port: 7865,
    health: '/',
    dataPath: '/content/data',
    env: (input) => ({
      CMDARGS: `--listen --port 7865 ${str(obj(input.fooocus_specific).extra_args)}`.trim(),
      DATADIR: '/content/data',
    }),
    outputs: (_i, e) => ({ app_url: appUrl(e) }),
  },
  {
    template: 'mlflow',
    image: 'ghcr.io/mlflow/mlflow:v2.19.0',
    port: 5000,
    health: '/health',
    dataPath: '/mlflow',
    command: () =>
      'mlflow server --host 0.0.0.0 --port 5000 --backend-store-uri sqlite:////mlflow/mlflow.db --artifacts-destination /mlflow/artifacts --serve-artifacts',
    outputs: (_i, e) => ({ app_url: appUrl(e), server_url: rest(e) }),
  },
  {
    template: 'private-gpt',
    image: 'zylonai/private-gpt:0.6.2',
    port: 8080,
    health: '/health',
    dataPath: '/home/worker/app/local_data',
    env: (input) => {
      const s = obj(input.private_gpt_specific);
      const pg = obj(input.pgvector_user);
      return {
        PGPT_PROFILES: 'openailike',
        PGPT_MODE: 'openailike',
        PGPT_LLM_API_BASE: urlOf(input.llm_chat_api) ?? '',
        PGPT_EMBEDDING_API_BASE: urlOf(input.embeddings_api) ?? '',
        PGPT_LLM_TEMPERATURE: String(s.llm_temperature ?? 0.1),
        PGPT_EMBEDDING_DIMENSION: String(s.embeddings_dimension ?? 768),
        POSTGRES_HOST: str(pg.host),
        POSTGRES_PORT: String(pg.port ?? 5432),
        POSTGRES_DB: str(pg.dbname),
        POSTGRES_USER: str(pg.user),
      };
    },
    secretEnv: (input) => secretAs('POSTGRES_PASSWORD', obj(input.pgvector_user).password),
    outputs: (_i, e) => ({ app_url: appUrl(e) }),
  },
  {
    template: 'pycharm',
    image: 'jetbrains/projector-pycharm-c:latest',
    port: 8887,
    health: '/',
    dataPath: '/home/projector-user',
    legacy: true,
    interactive: 'IDE',
    outputs: (_i, e) => ({
      internal_web_app_url: e ? httpApi(e, 'internal', '/', 'webapp') : null,
      external_web_app_url: e ? httpApi(e, 'external', '/', 'webapp') : null,
    }),
  },
  {
    template: 'stable-diffusion',
    image: 'universonic/stable-diffusion-webui:latest',
    port: 8080,
    health: '/',
    dataPath: '/app/stable-diffusion-webui/models',
    command: () => '--listen --port 8080 --api --skip-torch-cuda-test',
    env: (input) => {
      const model = obj(obj(input.stable_diffusion).hugging_face_model);
      return { SD_MODEL_HF_NAME: str(model.model_hf_name) };
    },
    outputs: (input, e) => ({
      api_url: rest(e, '/sdapi/v1'),
      hf_model: obj(input.stable_diffusion).hugging_face_model ?? null,
    }),
  },
  {
    template: 'text-embeddings-inference',
    image: 'ghcr.io/huggingface/text-embeddings-inference:cpu-1.6',
    port: 80,
    health: '/health',
    dataPath: '/data',
    command: (input) => {
      const args = Array.isArray(input.server_extra_args)
        ? input.server_extra_args.map(String)
        : [];
      return ['--model-id', str(obj(input.model).model_hf_name), ...args].join(' ');
    },
    env: (input) => envList(input.extra_env_vars).env,
    secretEnv: (input) => ({
      ...envList(input.extra_env_vars).secrets,
      ...secretAs('HF_TOKEN', obj(input.model).hf_token),
    }),
    outputs: (input, e) => {
      const api = (side: 'internal' | 'external') =>
        e
          ? {
              ...httpApi(e, side, '/', 'rest'),
              api_base_path: '/v1',
              openai_api_type: 'embeddings',
              endpoint_url: '/v1/embeddings',
              hf_model: obj(input.model),
            }
          : null;
      return { internal_api: api('internal'), external_api: api('external') };
    },
  },
  {
    template: 'weaviate',
    image: 'cr.weaviate.io/semitechnologies/weaviate:1.28.2',
    port: 8080,
    health: '/v1/.well-known/ready',
    dataPath: '/var/lib/weaviate',
    env: (input) => ({
      PERSISTENCE_DATA_PATH: '/var/lib/weaviate',
      GRPC_PORT: String(WEAVIATE_GRPC_PORT),
      QUERY_DEFAULTS_LIMIT: '25',
      DEFAULT_VECTORIZER_MODULE: 'none',
      CLUSTER_HOSTNAME: 'node1',
      AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED: obj(input.auth).username ? 'false' : 'true',
      ...(obj(input.auth).username
        ? {
            AUTHENTICATION_APIKEY_ENABLED: 'true',
            AUTHENTICATION_APIKEY_USERS: String(obj(input.auth).username),
          }
        : {}),
    }),
    secretEnv: (input) => secretAs('AUTHENTICATION_APIKEY_ALLOWED_KEYS', obj(input.auth).password),
    outputs: (input, e) => ({
      graphql_endpoint: rest(e, '/v1/graphql'),
      rest_endpoint: rest(e, '/v1'),
      grpc_endpoint: grpc(e),
      auth: obj(input.auth).username
        ? { username: obj(input.auth).username, password: obj(input.auth).password }
        : null,
    }),
  },
];

export const DOCKER_ONLY_RUNNERS = [...DOCKER_ONLY_APPS.map(containerRunner), difyRunner];
