import { performance } from 'node:perf_hooks';
import { DOCS_DIR } from '../../../http/docs.js';
import type { KnowledgeBase, Retrieval, RetrieveOptions, Section } from '../types.js';
import { forReader } from './audience.js';
import { compose, isSmallTalk } from './compose.js';
import { buildGlossary } from './glossary.js';
import { buildGraph } from './graph.js';
import { Retriever } from './modes.js';
import { EdgeIndex, SectionIndex } from './search.js';
import { loadDocSections, type DocSection } from './sections.js';

const NEAREST_FUZZY = { prefix: true, fuzzy: 0.3 } as const;

/** Built once per docs directory: the knowledge is read-only, and servers in one process share it. */
const built = new Map<string, KnowledgeBase>();

/**
 * The assistant's knowledge: the docs served at /docs (read once, at start: they ship with the
 * build) and the glossary generated from the product's texts, cut into heading sections, indexed
 * for full-text search, and linked into a graph for the four retrieval modes.
 */
export function loadKnowledge(
  opts: {
    docsDir?: string;
    /** Without the generated glossary: a test's own small docs, nothing else. */
    glossary?: boolean;
  } = {},
): KnowledgeBase {
  const key = `${opts.docsDir ?? DOCS_DIR}\u0000${opts.glossary !== false}`;
  let kb = built.get(key);
  if (!kb) built.set(key, (kb = buildKnowledge(opts)));
  return kb;
}

/**
 * The same knowledge, built when first used rather than at start (building it was a fifth of a
 * server's start): the first question waits for it, unless `warm` was called once the server
 * was up. `onBuilt` is told once it is built.
 */
export function lazyKnowledge(
  onBuilt: (kb: KnowledgeBase) => void = () => {},
): KnowledgeBase & { warm(): void } {
  let kb: KnowledgeBase | null = null;
  const get = () => {
    if (!kb) {
      kb = loadKnowledge();
      onBuilt(kb);
    }
    return kb;
  };
  return {
    retrieve: (query, o) => get().retrieve(query, o),
    compose: (query, retrieval) => get().compose(query, retrieval),
    nearest: (query, limit) => get().nearest(query, limit),
    isSmallTalk: (query) => get().isSmallTalk(query),
    get stats() {
      return get().stats;
    },
    warm: () => void get(),
  };
}

/** A fresh build, uncached: what the bench times. */
export function buildKnowledge(opts: { docsDir?: string; glossary?: boolean }): KnowledgeBase {
  const started = performance.now();
  const docs = loadDocSections(opts.docsDir ?? DOCS_DIR);
  const glossary = opts.glossary === false ? [] : buildGlossary(docs);
  const all: DocSection[] = [...docs, ...glossary.map((e) => e.section)];
  const sections = new Map(all.map((s) => [s.id, s]));
  const graph = buildGraph(docs, glossary);
  const index = new SectionIndex(all);
  const retriever = new Retriever(graph, sections, index, new EdgeIndex(graph.edges));
  const pageHead = new Map<string, DocSection>();
  for (const d of docs) if (!pageHead.has(d.page)) pageHead.set(d.page, d);

  const nearest = (query: string, limit = 3): Section[] => {
    const pages: Section[] = [];
    for (const r of index.searchWith(query, NEAREST_FUZZY)) {
      const s = sections.get(String(r.id))!;
      const page = s.page === 'glossary' ? s.url.replace(/^\/docs\/([^#]*).*$/, '$1') : s.page;
      const head = pageHead.get(page);
      if (!head || pages.some((p) => p.page === page)) continue;
      pages.push({
        id: page,
        page,
        heading: head.heading.split(' > ')[0]!,
        url: `/docs/${page}`,
        text: '',
      });
      if (pages.length >= limit) break;
    }
    return pages;
  };

  const stats = {
    sections: all.length,
    nodes: graph.nodes.size,
    edges: graph.edges.length,
    buildMs: Math.round((performance.now() - started) * 10) / 10,
  };
  return {
    retrieve: (query: string, o: RetrieveOptions): Retrieval =>
      forReader(query, retriever.retrieve(query, o)),
    compose: (query, retrieval) => compose(query, retrieval, sections, index, (q) => nearest(q)),
    nearest,
    isSmallTalk,
    stats,
  };
}
