import type { CopilotAnswer, CopilotMode, Plan } from '@orrery/contract';
import { HttpError } from '../../http/errors.js';
import { refusalMarkdown } from './tools/markdown.js';
import type { Asker, Fact, KnowledgeBase, Tools } from './types.js';

/**
 * What a question asks of the user's own resources, read the same way by both engines (embedded
 * and model), so that a greeting, a fact or a refused change is answered alike whichever answers.
 */
export interface Live {
  facts: Fact[];
  /** The change the question asks for, to confirm in the console. */
  plan: Plan | null;
  /** Why that change cannot be offered, in the API's words (forbidden, not found, ended). */
  refusal: string | null;
}

export const LIVE_TEXTS = {
  smallTalk:
    'Hello! Ask me about Orrery (jobs, apps, disks, credits and the rest), or about your own jobs and apps: why a job is pending, its last log lines, your credits.',
} as const;

export async function liveOf(tools: Tools, asker: Asker, message: string): Promise<Live> {
  const [facts, change] = await Promise.all([
    tools.facts(asker, message),
    tools.propose(asker, message).then(
      (plan) => ({ plan, refusal: null }),
      (e: unknown) => {
        // A change that cannot be offered is an answer, not a failure of the turn.
        if (e instanceof HttpError) return { plan: null, refusal: refusalMarkdown(e) };
        throw e;
      },
    ),
  ]);
  return { facts, ...change };
}

/** Whether the question asked anything of the user's resources. */
export const asksLive = (live: Live) =>
  live.facts.length > 0 || live.plan !== null || live.refusal !== null;

/**
 * The answer to a greeting or thanks that asks nothing live: a short reply, with no retrieval,
 * no citations and no model call (a model asked for a greeting's keywords finds none). Null for
 * any other question.
 */
export function smallTalkAnswer(
  knowledge: KnowledgeBase,
  live: Live,
  message: string,
  mode: CopilotMode,
): CopilotAnswer | null {
  if (asksLive(live) || !knowledge.isSmallTalk(message)) return null;
  return {
    response: LIVE_TEXTS.smallTalk,
    citations: [],
    mode,
    iterations: 0,
    engine: 'embedded',
    plans: [],
  };
}
