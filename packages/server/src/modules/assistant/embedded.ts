import { COPILOT_TEXTS, type Citation, type CopilotAnswer, type Plan } from '@orrery/contract';
import { asksLive, liveOf, smallTalkAnswer } from './live.js';
import { PLAN_TTL_MS } from './plans.js';
import { inlineText } from './tools/markdown.js';
import type { AskInput, Answerer, Fact, KnowledgeBase, Tools } from './types.js';

export const EMBEDDED_TEXTS = {
  plan: (p: Plan) =>
    `I can do this for you: **${inlineText(p.title)}**.${p.credits_per_hour === null ? '' : ` It costs ${p.credits_per_hour} credits per hour.`} Nothing changes until you confirm it (the plan expires in ${PLAN_TTL_MS / 60_000} minutes).`,
  fromDocs: 'From the docs:',
} as const;

/** Citations numbered from `from`, each fact's markers after its first line. */
function factsPart(facts: Fact[], from: number) {
  const citations: Citation[] = [];
  const texts = facts.map((f) => {
    const marks = f.citations.map((c) => {
      citations.push({ ...c, n: from + citations.length });
      return `[${from + citations.length - 1}]`;
    });
    if (marks.length === 0) return f.text;
    const [first, ...rest] = f.text.split('\n');
    return [`${first} ${marks.join(' ')}`, ...rest].join('\n');
  });
  return { texts, citations };
}

/** The docs' answer with its `[n]` moved up by `offset`, as its citations are. */
function shifted(docs: { response: string; citations: Citation[] }, offset: number) {
  const known = new Set(docs.citations.map((c) => c.n));
  return {
    response: docs.response.replace(/\[(\d+)\]/g, (m, n: string) =>
      known.has(Number(n)) ? `[${Number(n) + offset}]` : m,
    ),
    citations: docs.citations.map((c) => ({ ...c, n: c.n + offset })),
  };
}

/**
 * The embedded engine (no model): the live facts a question asks for first, then a plan if it
 * asks for a change, then the docs' extractive answer in the asked mode, one progress message
 * per round of retrieval. Greetings get a short reply with no citations.
 */
export class EmbeddedAnswerer implements Answerer {
  constructor(
    private readonly kb: KnowledgeBase,
    private readonly tools: Tools,
  ) {}

  async answer(input: AskInput): Promise<CopilotAnswer> {
    const { asker, message, mode } = input;
    const live = await liveOf(this.tools, asker, message);
    const greeting = smallTalkAnswer(this.kb, live, message, mode);
    if (greeting) return greeting;
    const { facts, plan, refusal } = live;
    const asked = asksLive(live);
    const retrieval = this.kb.retrieve(message, {
      mode,
      maxIterations: input.maxIterations,
      onRound: (round, added) => input.onProgress(round, COPILOT_TEXTS.progress(round, added)),
    });
    const own = factsPart(facts, 1);
    const parts = [...own.texts];
    // Markdown already: the API's words escaped (they may quote a name the user gave), live.ts.
    if (refusal) parts.push(refusal);
    if (plan) parts.push(EMBEDDED_TEXTS.plan(plan));
    const docs = shifted(this.kb.compose(message, retrieval), own.citations.length);
    // Beside a live fact, the docs speak only when they found something to cite.
    if (!asked) parts.push(docs.response);
    else if (docs.citations.length > 0)
      parts.push(`${EMBEDDED_TEXTS.fromDocs}\n\n${docs.response}`);
    return {
      response: parts.join('\n\n'),
      citations: [
        ...own.citations,
        ...(asked && docs.citations.length === 0 ? [] : docs.citations),
      ],
      mode,
      iterations: retrieval.rounds,
      engine: 'embedded',
      plans: plan ? [plan] : [],
    };
  }
}
