import { jsonOf, type ChatClient, type ChatMessage } from './client.js';
import { DATA_RULE, quote, type Redact } from './material.js';

/** LightRAG's keyword extraction: themes for the graph's edges, names for its nodes. */
export interface Keywords {
  high: string[];
  low: string[];
}

const MAX_KEYWORDS = 10;
const MAX_KEYWORD_LENGTH = 80;

const SYSTEM = [
  "You extract search keywords for questions about Orrery, an ML platform, and the user's work on it.",
  'high_level_keywords: the overarching concepts or themes of the question.',
  'low_level_keywords: the specific entities, names, settings, states, commands or errors it names.',
  'Answer with JSON only: {"high_level_keywords": [...], "low_level_keywords": [...]}.',
  DATA_RULE,
].join('\n');

const listOf = (v: unknown) =>
  (Array.isArray(v) ? v : [])
    .filter((k): k is string => typeof k === 'string')
    .map((k) => k.trim().slice(0, MAX_KEYWORD_LENGTH))
    .filter(Boolean)
    .slice(0, MAX_KEYWORDS);

/**
 * The question's keywords as the model picks them; the conversation so far lets it resolve "it"
 * and "that job". Undefined when it names none (a question with nothing to search for): the
 * model was reached and answered, so retrieval picks the keywords by its own lexical rules
 * rather than counting the turn as the model's failure.
 */
export async function extractKeywords(
  client: ChatClient,
  question: string,
  history: ChatMessage[],
  redact: Redact,
): Promise<Keywords | undefined> {
  const earlier = history.length
    ? `The conversation so far:\n${quote(history.map((h) => `${h.role}: ${h.content}`).join('\n'))}\n\n`
    : '';
  const reply = jsonOf(
    await client.complete(
      [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: redact(`${earlier}The question:\n${quote(question)}`) },
      ],
      { json: true },
    ),
  );
  const keywords = {
    high: listOf(reply.high_level_keywords),
    low: listOf(reply.low_level_keywords),
  };
  return keywords.high.length || keywords.low.length ? keywords : undefined;
}
