import { jsonOf, type ChatClient } from './client.js';
import { DATA_RULE, listed, quote, type Item } from './material.js';

/** Apolo's completeness check between iterations: is the material enough, and what next. */
export interface Judgement {
  complete: boolean;
  /** Entities to retrieve in the next round (the graph's low-level keywords). */
  next: string[];
}

const MAX_NEXT = 8;

const SYSTEM = [
  'You judge whether the numbered material below is enough to answer the question completely.',
  'Answer with JSON only: {"status": "complete" | "incomplete", "missing_aspects": [...], ' +
    '"next_entities_to_explore": [...]}, where next_entities_to_explore names the Orrery concepts, ' +
    'settings or resources whose documentation would fill what is missing.',
  DATA_RULE,
].join('\n');

export async function judge(
  client: ChatClient,
  question: string,
  items: Item[],
): Promise<Judgement> {
  const reply = jsonOf(
    await client.complete(
      [
        { role: 'system', content: SYSTEM },
        {
          role: 'user',
          content: `The question:\n${quote(question)}\n\nThe material:\n${listed(items)}`,
        },
      ],
      { json: true },
    ),
  );
  const next = (Array.isArray(reply.next_entities_to_explore) ? reply.next_entities_to_explore : [])
    .filter((e): e is string => typeof e === 'string' && !!e.trim())
    .map((e) => e.trim().slice(0, 80))
    .slice(0, MAX_NEXT);
  // Anything but an explicit "incomplete" ends the loop: a confused judge should not spin.
  return { complete: reply.status !== 'incomplete', next };
}
