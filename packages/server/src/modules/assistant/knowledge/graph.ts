import type { GlossaryEntry } from './glossary.js';
import type { DocSection } from './sections.js';
import { terms } from './text.js';

export type NodeKind = 'page' | 'section' | 'code' | 'route' | 'config' | 'term';
export type EdgeKind = 'has-section' | 'links-to' | 'mentions' | 'defined-in';

export interface GraphNode {
  id: string;
  kind: NodeKind;
  /** As the docs spell it: "Jobs", `pending`, `GET /api/v1/jobs`, a heading path. */
  name: string;
  /** Ids of the edges that touch it. */
  edges: number[];
}

export interface GraphEdge {
  source: string;
  target: string;
  kind: EdgeKind;
  /** "Jobs > The job page mentions pending": what the global mode searches. */
  text: string;
}

/**
 * The knowledge graph, read off the documents' structure rather than extracted by a model: pages
 * contain sections, sections link to sections and mention code, routes, configuration variables and
 * the glossary's product terms, and each term is defined in the section that explains it.
 */
export class Graph {
  readonly nodes = new Map<string, GraphNode>();
  readonly edges: GraphEdge[] = [];
  /** Normalised names (and aliases) → entity node ids: how a query's words find nodes. */
  readonly names = new Map<string, string[]>();
  private readonly edgeKeys = new Set<string>();

  node(id: string, kind: NodeKind, name: string): GraphNode {
    let n = this.nodes.get(id);
    if (!n) {
      n = { id, kind, name, edges: [] };
      this.nodes.set(id, n);
      if (kind !== 'section') for (const alias of aliases(name)) this.alias(alias, id);
    }
    return n;
  }

  private alias(name: string, id: string) {
    const key = terms(name).join(' ');
    if (!key) return;
    const ids = this.names.get(key) ?? [];
    if (!ids.includes(id)) ids.push(id);
    this.names.set(key, ids);
  }

  edge(source: GraphNode, target: GraphNode, kind: EdgeKind) {
    const key = `${source.id}\u0000${target.id}\u0000${kind}`;
    if (source.id === target.id || this.edgeKeys.has(key)) return;
    this.edgeKeys.add(key);
    const i =
      this.edges.push({
        source: source.id,
        target: target.id,
        kind,
        text: `${source.name} ${kind.replace('-', ' ')} ${target.name}`,
      }) - 1;
    source.edges.push(i);
    target.edges.push(i);
  }

  degree(id: string): number {
    return this.nodes.get(id)?.edges.length ?? 0;
  }

  neighbours(id: string): string[] {
    const n = this.nodes.get(id);
    if (!n) return [];
    return n.edges.map((i) => {
      const e = this.edges[i]!;
      return e.source === id ? e.target : e.source;
    });
  }
}

/** A name's other spellings: `ORRERY_S3_ENDPOINT` is also "orrery s3 endpoint". */
function aliases(name: string): string[] {
  const spaced = name.replace(/[_/{}.-]+/g, ' ').trim();
  return spaced && spaced !== name ? [name, spaced] : [name];
}

export const sectionNode = (id: string) => `section:${id}`;

export function buildGraph(docs: DocSection[], glossary: GlossaryEntry[]): Graph {
  const g = new Graph();
  const byId = new Map(docs.map((d) => [d.id, d]));
  const pageTitle = new Map<string, string>();
  for (const d of docs)
    if (!pageTitle.has(d.page)) pageTitle.set(d.page, d.heading.split(' > ')[0]!);
  const terms = new Map(glossary.filter((e) => e.name.length >= 3).map((e) => [e.name, e]));

  for (const d of docs) {
    const s = g.node(sectionNode(d.id), 'section', d.heading);
    const page = g.node(`page:${d.page}`, 'page', pageTitle.get(d.page)!);
    g.edge(
      d.parent ? g.node(sectionNode(d.parent), 'section', byId.get(d.parent)!.heading) : page,
      s,
      'has-section',
    );
    for (const link of d.links) {
      const target = byId.get(link);
      if (target) g.edge(s, g.node(sectionNode(target.id), 'section', target.heading), 'links-to');
      else if (pageTitle.has(link.split('#')[0]!)) {
        const p = link.split('#')[0]!;
        g.edge(s, g.node(`page:${p}`, 'page', pageTitle.get(p)!), 'links-to');
      }
    }
    for (const r of d.routes) g.edge(s, g.node(`route:${r}`, 'route', r), 'mentions');
    for (const c of d.configs) g.edge(s, g.node(`config:${c}`, 'config', c), 'mentions');
    for (const c of d.codes) {
      const t = terms.get(c);
      g.edge(s, t ? g.node(`term:${c}`, 'term', c) : g.node(`code:${c}`, 'code', c), 'mentions');
    }
  }
  for (const e of glossary) {
    const t = g.node(`term:${e.name}`, 'term', e.name);
    g.edge(g.node(sectionNode(e.section.id), 'section', e.section.heading), t, 'mentions');
    if (e.definedIn)
      g.edge(t, g.node(sectionNode(e.definedIn.id), 'section', e.definedIn.heading), 'defined-in');
  }
  return g;
}
