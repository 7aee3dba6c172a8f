import type { InstanceContext } from '../modules/apps/runner.js';

/** What the apps service hands a runner's `plan` for instance `demo` of acme/vision, on docker. */
export const planContext = (over: Partial<InstanceContext> = {}): InstanceContext => ({
  instanceId: 'i-1',
  name: 'demo',
  cluster: 'default',
  org: 'acme',
  project: 'vision',
  creator: 'alice',
  runtime: 'docker',
  preset: { name: 'cpu-small', cpu: 1, memoryBytes: 2 ** 30 },
  home: 'storage:.apps/x/demo',
  publicUrl: 'https://orrery.example',
  ingressDomain: 'jobs.orrery.example',
  ...over,
});

/** A dify input: its PostgreSQL given by hand, the password a project secret of that key. */
export const difyInput = (passwordKey: string) => ({
  preset: { name: 'cpu-small' },
  postgres_user: {
    user: 'dify',
    password: { key: passwordKey },
    host: 'job-9.acme--vision',
    port: 5432,
    dbname: 'dify',
  },
});

/** An input each template accepts: its required fields, with integrations already resolved. */
const pgUser = {
  user: 'app',
  password: { key: 'pg-pw' },
  host: 'job-9.acme--vision',
  port: 5432,
  dbname: 'app',
};
export const TEMPLATE_INPUTS: Record<string, Record<string, unknown>> = {
  'private-gpt': {
    preset: { name: 'cpu-small' },
    pgvector_user: pgUser,
    llm_chat_api: { host: 'job-2.acme--vision', port: 8000, protocol: 'http', base_path: '/v1' },
    embeddings_api: { host: 'job-3.acme--vision', port: 80, protocol: 'http', base_path: '/' },
  },
  pycharm: { preset_name: 'cpu-small', http_auth: false },
  'stable-diffusion': {
    preset: { name: 'gpu-small' },
    stable_diffusion: { hugging_face_model: { model_hf_name: 'stabilityai/sdxl-turbo' } },
  },
  'text-embeddings-inference': {
    preset: { name: 'cpu-small' },
    model: { model_hf_name: 'BAAI/bge-small-en-v1.5', hf_token: { key: 'hf' } },
    server_extra_args: ['--max-batch-tokens=16384'],
    extra_env_vars: [
      { name: 'RUST_LOG', value: 'info' },
      { name: 'API_KEY', value: { key: 'tei-key' } },
    ],
  },
  weaviate: {
    preset: { name: 'cpu-small' },
    auth: { username: 'admin', password: { key: 'wv-key' } },
  },
};
