import { isFinalAppState, orgUri, type AppState } from '@orrery/contract';
import { allows } from '../../../auth/permissions.js';
import type { AppContext } from '../../../context.js';
import type { RuntimeDriver } from '../../../runtime/driver.js';
import { endpointOf } from '../../apps/outputs.js';
import { homeOf } from '../../apps/service.js';
import { instanceById, jobsOfRevision, revision, roleTag } from '../../apps/store.js';
import { llmInferenceRunner } from '../../apps/templates/llm-inference/runner.js';
import { readSecret } from '../../secrets/service.js';
import type { Asker } from '../types.js';
import { chatClient, ModelError, type ChatClient, type ModelEndpoint } from './client.js';
import { chosenApp } from './store.js';

export const LLM_TEMPLATE = llmInferenceRunner.template;
/** What the llm-inference runner gives llama.cpp without `llm_config.context_size`. */
const APP_DEFAULT_CONTEXT = 2048;

export interface ChoiceDeps {
  /** Where the server reaches a job's HTTP port; without it an organization's app cannot answer. */
  driver?: Pick<RuntimeDriver, 'name' | 'endpoint'>;
  sealKey: Buffer;
  timeoutMs?: number;
}

interface ChatApi {
  host: string;
  port: number;
  protocol: string;
  base_path: string;
  api_base_path?: string;
  hf_model?: { model_hf_name?: string };
}

/**
 * Where the organization's llm-inference app answers, read from its `chat_internal_api` output
 * as the template computes it, with the address the server (not the project's jobs) reaches its
 * main job at. Its API key, when the app has one, is the project secret the output names.
 */
async function appEndpoint(ctx: AppContext, deps: ChoiceDeps, id: string): Promise<ModelEndpoint> {
  const row = await instanceById(ctx.db, id);
  if (!row || isFinalAppState(row.state as AppState)) {
    throw new ModelError(`the organization's ${LLM_TEMPLATE} app is ${row?.state ?? 'gone'}`);
  }
  const label = `${LLM_TEMPLATE} app ${row.id}`;
  const main = (await jobsOfRevision(ctx.db, row.id, row.revision)).find(
    (j) => j.status === 'running' && j.tags.includes(roleTag('main')),
  );
  const reach = main && deps.driver ? await deps.driver.endpoint(main.id) : null;
  const rev = await revision(ctx.db, row.id, row.revision);
  const e = main && reach ? endpointOf(main, ctx.config, reach) : null;
  if (!e || !rev) throw new ModelError(`${label} is not running`);
  const outputs = llmInferenceRunner.outputs(rev.resolved, {
    instanceId: row.id,
    name: row.name,
    cluster: row.clusterName,
    org: row.orgName,
    project: row.projectName,
    creator: row.creator,
    runtime: deps.driver!.name as 'process' | 'docker',
    preset: { name: row.presetName, cpu: 0, memoryBytes: 0 },
    home: homeOf(row),
    publicUrl: ctx.config.publicUrl,
    ingressDomain: ctx.config.ingressDomain,
    endpoints: { main: e },
  });
  const api = outputs.chat_internal_api as ChatApi | null;
  if (!api) throw new ModelError(`${label} has no chat_internal_api output`);
  const keyRef = outputs.llm_api_key as { key: string } | null;
  const place = { cluster: row.clusterName, org: row.orgName, project: row.projectName };
  const apiKey = keyRef
    ? await readSecret(ctx.db, deps.sealKey, place, keyRef.key).then(
        (s) => Buffer.from(s.value, 'base64').toString('utf8'),
        () => {
          throw new ModelError(`${label} has lost its API key secret`);
        },
      )
    : undefined;
  return {
    url: `${api.protocol}://${api.host}:${api.port}${api.base_path.replace(/\/$/, '')}${api.api_base_path ?? ''}`,
    apiKey,
    model: api.hf_model?.model_hf_name,
    label,
    contextTokens: contextOf(rev.resolved),
  };
}

/** The app's `llm_config.context_size` (the runner's default when unset). */
function contextOf(input: Record<string, unknown>) {
  const size = (input.llm_config as { context_size?: unknown } | undefined)?.context_size;
  return typeof size === 'number' && size > 0 ? size : APP_DEFAULT_CONTEXT;
}

/** A client that finds its endpoint on first use, so that a stopped app is a fallback, not an error. */
function lazyClient(
  label: string,
  resolve: () => Promise<ModelEndpoint>,
  timeoutMs?: number,
): ChatClient {
  let client: Promise<ChatClient> | null = null;
  let resolved: ChatClient | null = null;
  return {
    label,
    contextTokens: () => resolved?.contextTokens(),
    async complete(messages, opts) {
      client ??= resolve().then((e) => (resolved = chatClient(e, timeoutMs)));
      return (await client).complete(messages, opts);
    },
  };
}

/**
 * Which model answers an asker: their organization's chosen llm-inference app, else the
 * server's configured endpoint, else none (the embedded engine). The organization counts only
 * when the asker is one of its members: naming another organization borrows nothing.
 */
export function modelChoice(ctx: AppContext, deps: ChoiceDeps) {
  const cfg = ctx.config.assistantLlm;
  const configured = cfg
    ? chatClient({ ...cfg, label: 'ORRERY_ASSISTANT_LLM_URL' }, deps.timeoutMs)
    : null;
  return {
    async clientFor(asker: Asker): Promise<ChatClient | null> {
      const org = asker.context.org;
      if (org && allows(asker.grants, orgUri(org), 'read')) {
        const id = await chosenApp(ctx.db, org);
        if (id) {
          return lazyClient(
            `${LLM_TEMPLATE} app ${id}`,
            () => appEndpoint(ctx, deps, id),
            deps.timeoutMs,
          );
        }
      }
      return configured;
    },
  };
}
