import type { ChatClient, ChatMessage } from './client.js';
import { DATA_RULE, listed, quote, type Item } from './material.js';

const SYSTEM = [
  "You are Orrery's assistant. Orrery is an open ML platform: jobs, apps, files, disks, secrets, " +
    'credits, organizations and projects.',
  'Answer the question only from the numbered material. After each statement, cite the material ' +
    'it rests on as [n]. Never cite a number that is not in the list, and never state what the ' +
    'material does not say: if it is not enough, say plainly what you could not find.',
  'You cannot perform actions; when the user asks for a change, say what the change would be and ' +
    'that they can confirm it in the console.',
  'Answer in Markdown, briefly.',
  DATA_RULE,
].join('\n');

/** The final answer, from the material alone; the caller checks its citations. */
export async function composeAnswer(
  client: ChatClient,
  question: string,
  history: ChatMessage[],
  items: Item[],
): Promise<string> {
  const material = items.length ? listed(items) : '(nothing was found)';
  return client.complete([
    { role: 'system', content: SYSTEM },
    // Earlier turns go to the model only (retrieval reads the question alone), as quoted data.
    ...history.map((h) => ({ role: h.role, content: quote(h.content) })),
    {
      role: 'user',
      content: `The material:\n${material}\n\nThe question:\n${quote(question)}`,
    },
  ]);
}
