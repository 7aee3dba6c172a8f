/**
 * The one normalisation every part of the knowledge shares (index, graph names, keywords,
 * sentence choice): lower case, stop words dropped, a light stemmer. Sharing it is what makes a
 * query's "jobs" meet the graph's `job` and the index's "Jobs".
 */

/** Words that carry no topic: English function words and the question's own scaffolding. */
export const STOP_WORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does doing done for from had has have ' +
    'how i if in into is it its itself me my mine of on or our ours please should so than that the ' +
    'their them then there these they this those to too us was we were what when where which while ' +
    'who whom why will with would you your yours am any some all also just about up out over under ' +
    'again very more most much many such only own same no not nor off once here each both few other ' +
    'get got let lets s t tell show explain know want need use using used way ok okay another ' +
    'someone something anything thing things happen happens happened'
  ).split(' '),
);

/** Words split on anything that is not a letter, digit, underscore or inner hyphen/dot. */
const WORD = /[\p{L}\p{N}_]+(?:[.-][\p{L}\p{N}_]+)*/gu;

export function words(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 0);
}

/**
 * A light suffix stemmer: plurals, -ing, -ed, -ies. Aggressive stemmers merge product words that
 * mean different things ("credentials" and "credits" must never meet), so this stays minimal.
 */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 3 || /[\d_.]/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(w)) return w;
  if (/(ches|shes|sses|xes|zes)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s')) return w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) return undouble(w.slice(0, -3));
  if (w.endsWith('ed') && w.length > 4) return undouble(w.slice(0, -2));
  return w;
}

const undouble = (w: string) => (/([^aeiouls])\1$/.test(w) ? w.slice(0, -1) : w);

/** The index's and graph's term for a word, or null for a stop word. */
export function term(word: string): string | null {
  const w = word.toLowerCase();
  if (STOP_WORDS.has(w)) return null;
  return stem(w);
}

/** Content terms of a text, in order, stop words removed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    const t = term(w);
    if (t) out.push(t);
  }
  return out;
}

export { plainInline as plain } from '../../../http/docs.js';
