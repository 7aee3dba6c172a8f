import type { Graph } from './graph.js';
import { term, words } from './text.js';

export interface Keywords {
  /** Specific terms: the query's words or phrases that name a graph node (entities). */
  low: string[];
  /** Themes: the remaining content words. */
  high: string[];
}

const LONGEST_PHRASE = 4;

/**
 * Keywords by lexical rules, when no model gives them (LightRAG asks a model): the longest runs
 * of the query's words whose normalised form names a node are low-level keywords, the rest of
 * its content words high-level. With no theme left, the entities are the themes too.
 */
export function lexicalKeywords(query: string, graph: Graph): Keywords {
  const ws = words(query);
  const low: string[] = [];
  const high: string[] = [];
  let i = 0;
  while (i < ws.length) {
    let matched = 0;
    for (let n = Math.min(LONGEST_PHRASE, ws.length - i); n >= 1; n--) {
      const phrase = ws.slice(i, i + n);
      const key = phrase.map(term).filter(Boolean).join(' ');
      if (key && graph.names.has(key) && term(phrase[0]!) && term(phrase[n - 1]!)) {
        low.push(phrase.join(' '));
        // An ordinary word that names a node ("credits") is a theme too; an identifier is not.
        if (phrase.every((w) => /^\p{L}+$/u.test(w))) high.push(...phrase.filter((w) => term(w)));
        matched = n;
        break;
      }
    }
    if (matched) {
      i += matched;
      continue;
    }
    if (term(ws[i]!)) high.push(ws[i]!);
    i++;
  }
  if (!low.length && !high.length && query.trim().length < 50 && query.trim())
    low.push(query.trim());
  return { low: [...new Set(low)], high: [...new Set(high)] };
}
