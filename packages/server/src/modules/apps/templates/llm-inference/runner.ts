import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import { templateRuntimeHost } from '../../../../runtime/process/app-runtime.js';
import type { AppEndpoint, AppRunner, InstanceContext } from '../../runner.js';
import { appProgramsUnavailable, httpApi, jobSpec, requiresAuth } from '../shared.js';

const PORT = 8000;
const MODELS = '/models';
const LLAMA = join(templateRuntimeHost('llm-inference'), 'node_modules', 'node-llama-cpp');

/** The project secret holding the instance's API key. */
export const apiKeyKey = (ctx: Pick<InstanceContext, 'name'>) => `app-${ctx.name}-llm-api-key`;

interface Model {
  path: string;
  id: string;
}

/** The GGUF file the user chose in Files (`model.files_path`, an `ApoloFilesPath`). */
function modelOf(input: Record<string, unknown>): Model {
  const model = (input.model ?? {}) as { files_path?: { path?: unknown }; model_name?: unknown };
  const path = model.files_path?.path;
  if (typeof path !== 'string' || !path.startsWith('storage:') || !path.endsWith('.gguf')) {
    throw new Error('model.files_path must be a storage: path of a .gguf file');
  }
  const id =
    typeof model.model_name === 'string' && model.model_name
      ? model.model_name
      : posix.basename(path, '.gguf');
  return { path, id };
}

/**
 * `llm-inference`: llama.cpp through node-llama-cpp (its prebuilt Linux x64 CPU binary) serving
 * a GGUF model from the project's Files with an OpenAI-compatible API, in one job on the process
 * runtime (runtime/server.mjs beside this file). Behind `apolo_auth` the session is the
 * credential (both would travel in `Authorization`); with `no_auth` the API asks for a generated
 * key, kept as a project secret and named in the outputs, so a public endpoint is not open.
 */
export const llmInferenceRunner: AppRunner = {
  template: 'llm-inference',
  runtimes: ['process'],
  needs: ['volumes', 'http'],
  unavailable: () =>
    existsSync(LLAMA)
      ? appProgramsUnavailable()
      : 'node-llama-cpp is not installed: npm start or npm test installs it (packages/server/src/modules/apps/templates/llm-inference/runtime)',
  plan(input, ctx) {
    const model = modelOf(input);
    const open = !requiresAuth(input);
    const context = (input.llm_config as { context_size?: unknown } | undefined)?.context_size;
    const body = jobSpec({
      image: 'ghcr.io/ggml-org/llama.cpp:server',
      command: 'exec node "$ORRERY_APP_RUNTIME/llm-inference/server.mjs"',
      preset_name: ctx.preset.name,
      env: {
        MODEL_PATH: `${MODELS}/${posix.basename(model.path)}`,
        MODEL_ID: model.id,
        CONTEXT_SIZE: String(typeof context === 'number' ? context : 2048),
      },
      secret_env: open ? { LLM_API_KEY: `secret:${apiKeyKey(ctx)}` } : {},
      // The model's folder, read-only: a volume is a directory.
      volumes: [{ src_storage_uri: posix.dirname(model.path), dst_path: MODELS, read_only: true }],
      http: { port: PORT, health_check_path: '/health', requires_auth: !open },
      restart_policy: 'never',
    });
    return {
      jobs: [{ role: 'main', body }],
      health: { role: 'main', path: '/health' },
      secrets: open ? { [apiKeyKey(ctx)]: randomBytes(24).toString('base64url') } : {},
    };
  },
  outputs(input, ctx) {
    const model = modelOf(input);
    const e: AppEndpoint | undefined = ctx.endpoints.main;
    const hfModel = { model_hf_name: model.id, files_path: { path: model.path } };
    const api = (side: 'internal' | 'external', type: 'chat' | 'embeddings') =>
      e
        ? {
            ...httpApi(e, side, '/', 'rest'),
            api_base_path: '/v1',
            openai_api_type: type,
            endpoint_url: type === 'chat' ? '/v1/chat' : '/v1/embeddings',
            hf_model: hfModel,
          }
        : null;
    return {
      chat_internal_api: api('internal', 'chat'),
      chat_external_api: api('external', 'chat'),
      embeddings_internal_api: api('internal', 'embeddings'),
      embeddings_external_api: api('external', 'embeddings'),
      hugging_face_model: hfModel,
      // A reference, not the key: outputs are shown to every reader of the instance.
      llm_api_key: requiresAuth(input) ? null : { key: apiKeyKey(ctx), __type__: 'ApoloSecret' },
    };
  },
};
