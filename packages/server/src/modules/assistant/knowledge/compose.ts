import type { Citation } from '@orrery/contract';
import type { Retrieval, RetrievedSection, Section } from '../types.js';
import { asksInternals, literalsOf } from '../questions.js';
import { INTERNAL_SENTENCE } from './audience.js';
import { SCORE_THRESHOLD } from './modes.js';
import type { SectionIndex } from './search.js';
import { splitSentences, type DocSection } from './sections.js';
import { plain, terms, words } from './text.js';

const MAX_CITED = 3;
const MAX_SENTENCES = 4;
const PER_SECTION = 2;
const SNIPPET = 200;
const LITERAL_WEIGHT = 10;

export const NOT_FOUND = 'I could not find this in the documentation.';

const SMALL_TALK = new Set(
  (
    'hi hello hey hiya howdy yo good morning afternoon evening day thanks thank you thx ty cheers ' +
    'bye goodbye see later ok okay great nice cool awesome perfect so much very a lot there again ' +
    'how are doing today all everyone assistant copilot welcome'
  ).split(' '),
);
const GREETING =
  /^(hi|hello|hey|hiya|howdy|yo|good|thanks|thank|thx|ty|cheers|bye|goodbye|see|how|ok|okay|great|nice|cool|awesome|perfect)$/;

/** Greetings and thanks: answered without retrieval, so without citations. */
export function isSmallTalk(query: string): boolean {
  const ws = words(query);
  return (
    ws.length > 0 && ws.length <= 8 && ws.every((w) => SMALL_TALK.has(w)) && GREETING.test(ws[0]!)
  );
}

/** Docs links in a sentence made absolute: the answer is read in the console, not in docs/. */
const absolute = (sentence: string) =>
  sentence.replace(/\]\((?:\.\/)?([\w.-]+\.md(?:#[\w-]+)?)\)/g, '](/docs/$1)');

/**
 * The embedded answer: the sentences of the best retrieved sections that share the most (rare)
 * words with the question, each followed by its `[n]`. Only sections of this retrieval are
 * cited; when none reaches the threshold, it says so and offers the nearest pages instead.
 */
export function compose(
  query: string,
  retrieval: Retrieval,
  sections: Map<string, DocSection>,
  index: SectionIndex,
  nearest: (q: string) => Section[],
): { response: string; citations: Citation[] } {
  const top = onePerLink(retrieval.sections.filter((s) => s.score >= SCORE_THRESHOLD)).slice(
    0,
    MAX_CITED,
  );
  if (!top.length) return { response: refusal(nearest(query)), citations: [] };

  const qTerms = new Set(terms(query));
  const literals = literalsOf(query);
  // A sentence that holds what the question quotes (`--gres`) is the one to quote.
  const weigh = (sentence: string) =>
    [...new Set(terms(sentence))]
      .filter((t) => qTerms.has(t))
      .reduce((a, t) => a + index.idf(t), 0) *
    (literals.some((l) => sentence.includes(l)) ? LITERAL_WEIGHT : 1);
  // A user's answer leaves out what the docs say of the project's own tests and benchmarks.
  const internal = asksInternals(query);
  const picks = top.map((s, rank) => ({
    s,
    rank,
    sentences: sentencesOf(s, sections)
      .filter((text) => internal || !INTERNAL_SENTENCE.test(text))
      .map((text, i) => ({ text, i, w: weigh(text) }))
      .sort((a, b) => b.w - a.w || a.i - b.i),
  }));
  // Each cited section gives its best sentence; the rest go to the best remaining sentences.
  const said = new Set<string>();
  const chosen: Array<{
    p: (typeof picks)[number];
    x: (typeof picks)[number]['sentences'][number];
  }> = [];
  const take = (p: (typeof picks)[number], x: (typeof chosen)[number]['x']) => {
    said.add(x.text);
    chosen.push({ p, x });
  };
  for (const p of picks) {
    const x = p.sentences.find((c) => !said.has(c.text) && c.w > 0);
    if (x) take(p, x);
  }
  if (!chosen.length) return { response: refusal(nearest(query)), citations: [] };
  const rest = picks
    .flatMap((p) => p.sentences.slice(1, PER_SECTION).map((x) => ({ p, x })))
    .filter((c) => c.x.w > 0)
    .sort((a, b) => b.x.w - a.x.w);
  for (const c of rest) if (chosen.length < MAX_SENTENCES && !said.has(c.x.text)) take(c.p, c.x);

  const cited = [...new Set(chosen.map((c) => c.p.rank))].sort((a, b) => a - b);
  const n = (rank: number) => cited.indexOf(rank) + 1;
  const lines = chosen
    .sort((a, b) => a.p.rank - b.p.rank || a.x.i - b.x.i)
    .map((c) => `${absolute(c.x.text)} [${n(c.p.rank)}]`);
  const citations: Citation[] = cited.map((rank) => {
    const p = picks[rank]!;
    const first = chosen.find((c) => c.p.rank === rank)!.x.text;
    return { n: n(rank), title: p.s.heading, url: p.s.url, snippet: snippet(first) };
  });
  return { response: lines.join(' '), citations };
}

/**
 * One citation per link, best first: a glossary entry links to the docs section that explains its
 * term, and when both were found the answer quotes the explanation, ranked as the better of the two.
 */
function onePerLink(found: RetrievedSection[]): RetrievedSection[] {
  const best = new Map<string, RetrievedSection>();
  for (const s of found) {
    const held = best.get(s.url);
    if (!held) best.set(s.url, s);
    else {
      const doc = held.page === 'glossary' ? s : held;
      best.set(s.url, { ...doc, score: Math.max(held.score, s.score) });
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

function sentencesOf(s: RetrievedSection, sections: Map<string, DocSection>): string[] {
  const d = sections.get(s.id);
  const own = d?.sentences.length ? d.sentences : splitSentences(s.text);
  return own.length ? own : [s.heading];
}

const snippet = (sentence: string) => {
  const p = plain(sentence);
  return p.length > SNIPPET ? `${p.slice(0, SNIPPET - 1)}…` : p;
};

function refusal(pages: Section[]): string {
  if (!pages.length) return `${NOT_FOUND} The [documentation](/docs/) lists every page.`;
  const links = pages.map((p) => `[${p.heading}](${p.url})`).join(', ');
  return `${NOT_FOUND} The nearest pages: ${links}.`;
}
