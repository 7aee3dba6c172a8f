import MiniSearch, { type SearchOptions } from 'minisearch';
import type { GraphEdge } from './graph.js';
import type { DocSection } from './sections.js';
import { term, terms, words } from './text.js';

/**
 * Prefix and fuzzy matching only for words of five letters or more: on short words they match
 * the wrong thing ("buy credits" found "credentials").
 */
const LOOSE = 5;
const OPTIONS: SearchOptions = {
  prefix: (t) => t.length >= LOOSE,
  fuzzy: (t) => (t.length >= LOOSE ? 0.2 : false),
  combineWith: 'OR',
};
const shared = { tokenize: words, processTerm: (w: string) => term(w) ?? null } as const;

export interface Relevance {
  /** Score in [0, 1]: how much of the query (by rarity) the section covers, times its BM25 rank. */
  score: number;
  bm25: number;
}

/** Full-text search over the sections (BM25, headings boosted) and how well each meets a query. */
export class SectionIndex {
  private readonly index = new MiniSearch<DocSection>({
    fields: ['heading', 'text'],
    storeFields: [],
    ...shared,
    searchOptions: { ...OPTIONS, boost: { heading: 2 } },
  });
  /** How many sections hold each term: rare words weigh more in coverage. */
  private readonly df = new Map<string, number>();

  constructor(readonly sections: DocSection[]) {
    this.index.addAll(sections);
    for (const s of sections) {
      for (const t of new Set(terms(`${s.heading} ${s.text}`)))
        this.df.set(t, (this.df.get(t) ?? 0) + 1);
    }
  }

  idf(t: string): number {
    const n = this.sections.length;
    return Math.log(1 + n / (1 + (this.df.get(t) ?? 0)));
  }

  /** Search with looser matching than retrieval's: for the pages nearest a refused question. */
  searchWith(query: string, options: SearchOptions) {
    return this.index.search(query, options);
  }

  search(query: string, limit = 20) {
    return this.index.search(query).slice(0, limit);
  }

  /** Every section's relevance to the query, those with any match. */
  relevance(query: string): Map<string, Relevance> {
    const qTerms = [...new Set(terms(query))];
    const total = qTerms.reduce((a, t) => a + this.idf(t), 0);
    const out = new Map<string, Relevance>();
    if (!total) return out;
    const results = this.index.search(query);
    const top = results[0]?.score ?? 1;
    for (const r of results) {
      const covered = new Set(r.queryTerms);
      const coverage =
        qTerms.filter((t) => covered.has(t)).reduce((a, t) => a + this.idf(t), 0) / total;
      out.set(String(r.id), { score: coverage * (0.5 + (0.5 * r.score) / top), bm25: r.score });
    }
    return out;
  }
}

/** The graph's edges, searchable by their text: what the global mode matches themes against. */
export class EdgeIndex {
  private readonly index = new MiniSearch<{ id: number; text: string }>({
    fields: ['text'],
    ...shared,
    searchOptions: OPTIONS,
  });

  constructor(edges: GraphEdge[]) {
    this.index.addAll(edges.map((e, id) => ({ id, text: e.text })));
  }

  search(keywords: string[], limit = 40): number[] {
    if (!keywords.length) return [];
    return this.index
      .search(keywords.join(' '))
      .slice(0, limit)
      .map((r) => Number(r.id));
  }
}
