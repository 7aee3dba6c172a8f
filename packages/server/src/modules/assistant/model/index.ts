import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../../context.js';
import type { RuntimeDriver } from '../../../runtime/driver.js';
import { loadSecretsKey } from '../../secrets/key.js';
import type { Answerer, Asker, KnowledgeBase, Tools } from '../types.js';
import { ModelAnswerer } from './answerer.js';
import { modelChoice } from './choice.js';
import { redactionFor } from './redact.js';

export { modelSettingRoutes } from './routes.js';
export { MODEL_UNREACHABLE } from './answerer.js';

export interface ModelDeps {
  knowledge: KnowledgeBase;
  tools: Tools;
  /** The embedded engine: it answers when the model fails. */
  embedded: Answerer;
  log: FastifyBaseLogger;
  /** The jobs' runtime, to reach an organization's llm-inference app (jobs.driver). */
  driver?: Pick<RuntimeDriver, 'name' | 'endpoint'>;
  /** Bounds each model request (client.ts MODEL_TIMEOUT_MS by default). */
  timeoutMs?: number;
}

/**
 * The socket's `modelAnswerer` option: for each asker, an answerer over the model that serves
 * them (their organization's app, else ORRERY_ASSISTANT_LLM_URL), or null for the embedded one.
 */
export function modelAnswererFor(
  ctx: AppContext,
  deps: ModelDeps,
): (asker: Asker) => Promise<Answerer | null> {
  const sealKey = loadSecretsKey({
    configured: ctx.config.secretsKey,
    dataDir: ctx.config.dataDir,
  });
  const choice = modelChoice(ctx, { driver: deps.driver, sealKey, timeoutMs: deps.timeoutMs });
  const redactFor = redactionFor(ctx, sealKey);
  return async (asker) => {
    const client = await choice.clientFor(asker);
    return client ? new ModelAnswerer({ ...deps, client, redactFor }) : null;
  };
}
