import { COPILOT_TEXTS, type CopilotAnswer } from '@orrery/contract';
import type { FastifyBaseLogger } from 'fastify';
import { liveOf, smallTalkAnswer, type Live } from '../live.js';
import type {
  Answerer,
  AskInput,
  Asker,
  Fact,
  KnowledgeBase,
  Retrieval,
  RetrievedSection,
  Tools,
} from '../types.js';
import { ANSWER_TOKENS, ModelError, type ChatClient, type ChatMessage } from './client.js';
import { composeAnswer } from './compose.js';
import { judge } from './judge.js';
import { extractKeywords, type Keywords } from './keywords.js';
import { budgetOf, checkCitations, cut, itemsOf, recent, type Redact } from './material.js';

/** Shown with the embedded engine's answer when the chosen model failed this turn. */
export const MODEL_UNREACHABLE =
  'The model could not be reached, so the built-in assistant answered from the docs alone.';

export interface ModelAnswererDeps {
  client: ChatClient;
  knowledge: KnowledgeBase;
  tools: Tools;
  /** Answers when the model cannot. */
  embedded: Answerer;
  /** Every secret value the asker's material (with these facts) could hold, replaced first. */
  redactFor(asker: Asker, facts: Fact[]): Promise<Redact>;
  log: FastifyBaseLogger;
}

/** Merges a round's sections into what was found before; how many were new. */
function merge(into: Map<string, RetrievedSection>, found: Retrieval, round: number) {
  let added = 0;
  for (const s of found.sections) {
    if (into.has(s.id)) continue;
    into.set(s.id, { ...s, round });
    added += 1;
  }
  return added;
}

/** Earlier rounds first (they answer the question itself), the best of each round first. */
const ranked = (found: Map<string, RetrievedSection>) =>
  [...found.values()].sort((a, b) => a.round - b.round || b.score - a.score);

/**
 * Apolo's copilot loop over Orrery's retrieval: the model picks the keywords,
 * the knowledge base retrieves with them in the asked mode, the model judges between rounds
 * whether the material is complete and what to explore next, then composes the answer from that
 * material alone. The server keeps only the citations that point at it. The model never acts:
 * a change is the tools' plan, confirmed by the user.
 */
export class ModelAnswerer implements Answerer {
  constructor(private readonly deps: ModelAnswererDeps) {}

  async answer(input: AskInput): Promise<CopilotAnswer> {
    const started = Date.now();
    // A fallback after some iterations goes on from there: the client never sees one twice.
    let sent = 0;
    const onProgress = (n: number, message: string) => {
      if (n <= sent) return;
      sent = n;
      input.onProgress(n, message);
    };
    const live = await liveOf(this.deps.tools, input.asker, input.message);
    // A greeting is answered as the embedded engine answers it: no model call, no notice.
    const greeting = smallTalkAnswer(this.deps.knowledge, live, input.message, input.mode);
    if (greeting) return greeting;
    try {
      const answer = await this.run({ ...input, onProgress }, live);
      this.deps.log.info(
        {
          engine: this.deps.client.label,
          ms: Date.now() - started,
          chars: answer.response.length,
          citations: answer.citations.length,
        },
        'assistant model answered',
      );
      return answer;
    } catch (e) {
      if (!(e instanceof ModelError)) throw e;
      // The reason is ours (status, timeout), never the conversation.
      this.deps.log.warn(
        { engine: this.deps.client.label, reason: e.message, ms: Date.now() - started },
        'assistant model failed; the embedded engine answers',
      );
      const answer = await this.deps.embedded.answer({ ...input, onProgress });
      return { ...answer, notice: MODEL_UNREACHABLE };
    }
  }

  private async run(input: AskInput, live: Live): Promise<CopilotAnswer> {
    const { client, knowledge } = this.deps;
    const { facts, plan, refusal } = live;
    const redact = await this.deps.redactFor(input.asker, facts);
    const question = redact(input.message);
    const redacted: ChatMessage[] = input.history.map((h) => ({
      role: h.role,
      content: cut(redact(h.content)),
    }));
    // A small window (an llm-inference app's 2048 tokens) holds a quarter of history at most.
    const budget = () => budgetOf(client.contextTokens(), ANSWER_TOKENS);
    const historyFor = () => recent(redacted, budget() / 4);

    let keywords: Keywords | undefined = await extractKeywords(
      client,
      question,
      recent(redacted, 3000),
      redact,
    );
    const found = new Map<string, RetrievedSection>();
    let last: Retrieval | null = null;
    let iterations = 0;
    for (let round = 1; round <= input.maxIterations; round += 1) {
      iterations = round;
      // One knowledge round per model iteration: the judge, not the graph, decides to go on.
      last = knowledge.retrieve(input.message, { mode: input.mode, maxIterations: 1, keywords });
      const added = merge(found, last, round);
      input.onProgress(round, COPILOT_TEXTS.progress(round, added));
      if (round === input.maxIterations || (round > 1 && added === 0)) break;
      const verdict = await judge(
        client,
        question,
        itemsOf({ ...last, sections: ranked(found) }, facts, redact, budget()),
      );
      if (verdict.complete || !verdict.next.length) break;
      keywords = { high: keywords?.high ?? [], low: verdict.next };
    }

    const retrieval: Retrieval = {
      mode: input.mode,
      sections: ranked(found),
      entities: last?.entities ?? [],
      relations: last?.relations ?? [],
      rounds: iterations,
    };
    const history = historyFor();
    const used = history.reduce((n, h) => n + h.content.length, 0);
    const items = itemsOf(retrieval, facts, redact, budget() - used);
    const composed = await composeAnswer(client, question, history, items);
    const { response, citations } = checkCitations(composed, items);
    return {
      // A change that cannot be offered is said in the API's words, as the embedded engine does.
      // The API's words may quote a name the user gave: text, not markup.
      response: refusal ? `${refusal}\n\n${response}` : response,
      citations,
      mode: input.mode,
      iterations,
      engine: 'model',
      plans: plan ? [plan] : [],
    };
  }
}
