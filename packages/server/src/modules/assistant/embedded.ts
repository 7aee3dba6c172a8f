import { COPILOT_TEXTS, type Citation, type CopilotAnswer, type Plan } from '@orrery/contract';
import { asksLive, liveOf, smallTalkAnswer } from './live.js';
import { PLAN_TTL_MS } from './plans.js';
import { SCORE_THRESHOLD } from './knowledge/modes.js';
import { isHowTo } from './questions.js';
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
 * How strong the docs must be to speak beside a live fact that answers the question: twice what
 * an answer from the docs alone rests on, so that the fact is not followed by the nearest passage
 * on a word of the question ("why did my app fail?" is the app's events, not the Export button).
 */
const BESIDE_FACTS = 2 * SCORE_THRESHOLD;

/**
 * The embedded engine (no model): the live facts a question asks for first, then a plan if it
 * asks for a change, then the docs' extractive answer in the asked mode, one progress message
 * per round of retrieval; a how-to question gets the docs (the console's path) first and the
 * facts that bear on it after. Greetings get a short reply with no citations.
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
    const composed = this.kb.compose(message, retrieval);
    const howTo = isHowTo(message) && composed.citations.length > 0;
    const docsSpeak =
      !asked ||
      howTo ||
      (composed.citations.length > 0 && retrieval.sections.some((s) => s.score >= BESIDE_FACTS));
    // A how-to's facts come after the docs' path, numbered after its citations.
    const own = factsPart(facts, howTo ? composed.citations.length + 1 : 1);
    const docs = shifted(composed, howTo ? 0 : own.citations.length);
    // Markdown already: the API's words escaped (they may quote a name the user gave), live.ts.
    const change = [refusal, plan && EMBEDDED_TEXTS.plan(plan)].filter((x): x is string => !!x);
    const docsText =
      !asked || howTo ? docs.response : `${EMBEDDED_TEXTS.fromDocs}\n\n${docs.response}`;
    const parts = howTo
      ? [docsText, ...own.texts, ...change]
      : [...own.texts, ...change, ...(docsSpeak ? [docsText] : [])];
    const cited = docsSpeak ? docs.citations : [];
    return {
      response: parts.join('\n\n'),
      citations: howTo ? [...cited, ...own.citations] : [...own.citations, ...cited],
      mode,
      iterations: retrieval.rounds,
      engine: 'embedded',
      plans: plan ? [plan] : [],
    };
  }
}
