import type { CopilotMode } from '@orrery/contract';
import type { RetrievedSection, Retrieval, RetrieveOptions } from '../types.js';
import { sectionNode, type Graph } from './graph.js';
import { lexicalKeywords } from './keywords.js';
import type { EdgeIndex, Relevance, SectionIndex } from './search.js';
import type { DocSection } from './sections.js';
import { terms } from './text.js';

/** A section counts as found when its relevance reaches this (see search.ts). */
export const SCORE_THRESHOLD = 0.45;
/** LightRAG's top_k for entities and relations, its chunks per entity, and mix's chunk_top_k. */
const TOP_K = 40;
const PER_ENTITY = 5;
const CHUNK_TOP_K = 20;
/** A section that both graph routes (the entities' and the themes') lead to ranks higher. */
const AGREEMENT = 0.25;
/**
 * Glossary entries are short, so BM25 favours them; they name a term where the docs explain it,
 * and an answer should rest on the explanation first.
 */
const GLOSSARY_WEIGHT = 0.8;

interface Found {
  sections: string[];
  entities: string[];
  relations: string[];
}

/** Lists merged in turn, first list first, each item once (LightRAG's hybrid merge). */
export function roundRobin<T>(...lists: T[][]): T[] {
  const out: T[] = [];
  const seen = new Set<T>();
  for (let i = 0; lists.some((l) => i < l.length); i++) {
    for (const l of lists) {
      const x = l[i];
      if (x !== undefined && !seen.has(x)) {
        seen.add(x);
        out.push(x);
      }
    }
  }
  return out;
}

export class Retriever {
  constructor(
    private readonly graph: Graph,
    private readonly sections: Map<string, DocSection>,
    private readonly index: SectionIndex,
    private readonly edgeIndex: EdgeIndex,
  ) {}

  private sectionsOf(nodeId: string): string[] {
    const n = this.graph.nodes.get(nodeId);
    if (!n) return [];
    if (n.kind === 'section') return [nodeId.slice('section:'.length)];
    return this.graph
      .neighbours(nodeId)
      .filter((id) => id.startsWith('section:'))
      .map((id) => id.slice('section:'.length));
  }

  private byRelevance(ids: string[], rel: Map<string, Relevance>) {
    return [...ids].sort((a, b) => (rel.get(b)?.score ?? 0) - (rel.get(a)?.score ?? 0));
  }

  /** local: nodes named by the specific terms, ranked by degree, with their edges and sections. */
  local(low: string[], rel: Map<string, Relevance>): Found {
    const ids = new Set<string>();
    for (const k of low) {
      for (const id of this.graph.names.get(terms(k).join(' ')) ?? []) ids.add(id);
    }
    const entities = [...ids]
      .sort((a, b) => this.graph.degree(b) - this.graph.degree(a))
      .slice(0, TOP_K);
    const edges = [...new Set(entities.flatMap((id) => this.graph.nodes.get(id)!.edges))].sort(
      (a, b) => this.edgeDegree(b) - this.edgeDegree(a),
    );
    return {
      entities: entities.map((id) => this.graph.nodes.get(id)!.name),
      relations: edges.map((i) => this.graph.edges[i]!.text),
      sections: roundRobin(
        ...entities.map((id) => this.byRelevance(this.sectionsOf(id), rel).slice(0, PER_ENTITY)),
      ),
    };
  }

  /** global: edges (and so headings) matching the themes, best first, with their endpoints. */
  global(high: string[]): Found {
    const edges = this.edgeIndex.search(high, TOP_K).map((i) => this.graph.edges[i]!);
    const endpoints = edges.flatMap((e) => [e.source, e.target]);
    return {
      entities: [...new Set(endpoints)].map((id) => this.graph.nodes.get(id)!.name),
      relations: edges.map((e) => e.text),
      sections: [
        ...new Set(
          edges.flatMap((e) =>
            [e.source, e.target].filter((id) => id.startsWith('section:')).map((id) => id.slice(8)),
          ),
        ),
      ],
    };
  }

  private edgeDegree(i: number) {
    const e = this.graph.edges[i]!;
    return this.graph.degree(e.source) + this.graph.degree(e.target);
  }

  retrieve(query: string, opts: RetrieveOptions): Retrieval {
    const kw = opts.keywords ?? lexicalKeywords(query, this.graph);
    const rel = this.index.relevance(query);
    const routes: Found[] = [];
    const mode: CopilotMode = opts.mode;
    if (mode !== 'global') routes.push(this.local(kw.low, rel));
    if (mode !== 'local') routes.push(this.global(kw.high));
    if (mode === 'mix') {
      const direct = this.index.search(query, CHUNK_TOP_K).map((r) => String(r.id));
      routes.push({ sections: direct, entities: [], relations: [] });
    }
    const order = roundRobin(...routes.map((r) => r.sections));
    const graphRoutes = routes.slice(0, mode === 'mix' ? -1 : undefined);
    const agreement = (id: string) =>
      Math.max(0, graphRoutes.filter((r) => r.sections.includes(id)).length - 1);
    const found = new Map<string, RetrievedSection>();
    for (const id of order) found.set(id, this.found(id, rel, 1, agreement(id)));
    const entities = roundRobin(...routes.map((r) => r.entities));
    const relations = roundRobin(...routes.map((r) => r.relations));

    let rounds = 1;
    opts.onRound?.(1, [...found.values()].filter((s) => s.score >= SCORE_THRESHOLD).length);
    let frontier = order;
    while (rounds < opts.maxIterations) {
      const next = this.expand(frontier, found, rel, rounds + 1);
      rounds++;
      opts.onRound?.(rounds, next.length);
      if (!next.length) break;
      for (const s of next) found.set(s.id, s);
      frontier = next.map((s) => s.id);
    }
    return { mode, sections: [...found.values()], entities, relations, rounds };
  }

  /** One round: the neighbours of the previous round's sections, kept when relevant enough. */
  private expand(
    frontier: string[],
    found: Map<string, RetrievedSection>,
    rel: Map<string, Relevance>,
    round: number,
  ) {
    const candidates = new Set<string>();
    for (const id of frontier) {
      for (const n of this.graph.neighbours(sectionNode(id))) {
        for (const s of this.sectionsOf(n)) if (!found.has(s)) candidates.add(s);
      }
    }
    return this.byRelevance([...candidates], rel)
      .map((id) => this.found(id, rel, round, 0))
      .filter((s) => s.score >= SCORE_THRESHOLD);
  }

  private found(
    id: string,
    rel: Map<string, Relevance>,
    round: number,
    agreement: number,
  ): RetrievedSection {
    const s = this.sections.get(id)!;
    const weight = s.page === 'glossary' ? GLOSSARY_WEIGHT : 1;
    const score = (rel.get(id)?.score ?? 0) * (1 + AGREEMENT * agreement) * weight;
    return { id: s.id, page: s.page, heading: s.heading, url: s.url, text: s.text, score, round };
  }
}
