import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { modelAnswererFor, modelSettingRoutes } from './model/index.js';
import type { AppContext } from '../../context.js';
import type { JobsService } from '../jobs/service.js';
import { EmbeddedAnswerer } from './embedded.js';
import { lazyKnowledge } from './knowledge/index.js';
import { planRoutes } from './routes.js';
import { COPILOT_WINDOW_MS, RateLimiter } from './rate-limit.js';
import { createTools } from './tools/index.js';
import type { RuntimeDriver } from '../../runtime/driver.js';
import type { Catalogue } from '../apps/catalogue.js';
import type { Answerer, Asker, KnowledgeBase, Tools } from './types.js';
import { copilotSocket } from './routes-copilot.js';

/** What the assistant is built from, for a model's Answerer to build on (model/). */
export interface AssistantParts {
  knowledge: KnowledgeBase;
  tools: Tools;
  /** The embedded engine, which answers when a model fails. */
  embedded: Answerer;
  log: FastifyBaseLogger;
  driver: RuntimeDriver;
}

type ModelHook = (asker: Asker) => Promise<Answerer | null>;

export interface AssistantOptions {
  /**
   * A model's Answerer for this asker (model/, when one is configured for them), or null for
   * the embedded engine.
   */
  modelAnswerer?: ModelHook;
  /** The same hook made from the assistant's own parts (default: model/index.ts `modelAnswererFor`). */
  model?: (parts: AssistantParts) => ModelHook;
  /** The docs and glossary, indexed; built from docs/ at start otherwise. */
  knowledge?: KnowledgeBase;
}

/**
 * Who answers an asker: the model's Answerer when the hook gives one, else the embedded engine.
 * A hook that fails leaves the question to the embedded engine (the model's own failures are
 * its Answerer's to fall back from, with a notice).
 */
export function answererPicker(
  embedded: Answerer,
  modelAnswerer: ModelHook | undefined,
  log: FastifyBaseLogger,
) {
  return async (asker: Asker): Promise<Answerer> => {
    if (!modelAnswerer) return embedded;
    try {
      return (await modelAnswerer(asker)) ?? embedded;
    } catch (e) {
      log.warn({ failure: e instanceof Error ? e.name : typeof e }, 'copilot model unavailable');
      return embedded;
    }
  };
}

/** The assistant: the copilot WebSocket over the knowledge and the tools, and plan confirmation. */
export const assistantModule =
  (
    ctx: AppContext,
    jobs: JobsService,
    /** The apps module's catalogue (one per server): what the assistant may install. */
    catalogue: Catalogue,
    opts: AssistantOptions = {},
  ): FastifyPluginAsync =>
  async (app) => {
    const log = (kb: KnowledgeBase) =>
      app.log.info({ knowledge: kb.stats }, 'assistant knowledge indexed');
    let knowledge: KnowledgeBase;
    let warm: (() => void) | undefined;
    if (opts.knowledge) log((knowledge = opts.knowledge));
    else {
      // Built when someone first opens the assistant, not at start: building it right after
      // listening held the first requests (readiness among them) for about 0.4 s.
      const lazy = lazyKnowledge(log);
      knowledge = lazy;
      warm = () => lazy.warm();
    }
    const tools = createTools({
      db: ctx.db,
      driver: jobs.driver,
      publicUrl: ctx.config.publicUrl,
      ingressDomain: ctx.config.ingressDomain,
      catalogue,
      clusterCatalog: ctx.clusterCatalog,
      scheduling: (j) => jobs.queue.scheduling(j),
    });
    const embedded = new EmbeddedAnswerer(knowledge, tools);
    const parts = { knowledge, tools, embedded, log: app.log, driver: jobs.driver };
    // A configured endpoint or an organization's app answers through the same parts.
    const modelAnswerer =
      opts.modelAnswerer ??
      (opts.model ?? ((p: AssistantParts) => modelAnswererFor(ctx, p)))(parts);
    await app.register(
      copilotSocket({
        ctx,
        answererFor: answererPicker(embedded, modelAnswerer, app.log),
        limiter: new RateLimiter(ctx.db, ctx.config.assistantQuestionsPerMinute, COPILOT_WINDOW_MS),
        onOpen: warm,
      }),
    );
    await app.register(planRoutes(ctx));
    await app.register(modelSettingRoutes(ctx));
  };
