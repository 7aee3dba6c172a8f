import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { marked, type Token, type Tokens } from 'marked';
import { headingSlugger } from '../../../http/docs.js';
import type { Section } from '../types.js';
import { plain } from './text.js';

/** A heading section with what the graph and the extractive answer need beyond the wire's. */
export interface DocSection extends Section {
  /** Heading depth (1 = the page title; 0 = text before the first heading). */
  depth: number;
  parent: string | null;
  /** The section's own heading, without the page path. */
  title: string;
  /** Prose sentences (markdown inline), the candidates of an extractive answer. */
  sentences: string[];
  /** Docs pages (and anchors) it links to: `jobs.md` or `jobs.md#the-job-page`. */
  links: string[];
  codes: string[];
  routes: string[];
  configs: string[];
}

const ROUTE = /\b(GET|POST|PUT|PATCH|DELETE|WS)\s+(\/[^\s`|,;)]+)/g;
const CONFIG = /\bORRERY_[A-Z0-9_]+\b/g;
const CODE = /`([^`\n]{2,60})`/g;
const LINK = /\]\(([^)\s]+)\)/g;
const DOC_HREF = /^(?:\.\/)?([\w.-]+\.md)?(#[\w-]+)?$/;

/** Sentence ends: a stop followed by a space and something that starts a sentence. */
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z`*[(“"])/;

export function splitSentences(paragraph: string): string[] {
  return paragraph
    .replace(/\s*\n\s*/g, ' ')
    .split(SENTENCE_END)
    .map((s) => s.trim())
    .filter((s) => s.length > 2);
}

const unique = <T>(xs: T[]) => [...new Set(xs)];

/** Every `docs/*.md` page, cut at its headings. */
export function loadDocSections(dir: string): DocSection[] {
  const files = readdirSync(dir)
    .filter((n) => n.endsWith('.md'))
    .sort();
  return files.flatMap((f) => pageSections(f, readFileSync(join(dir, f), 'utf8')));
}

export function pageSections(page: string, markdown: string): DocSection[] {
  const slug = headingSlugger();
  const out: DocSection[] = [];
  const path: Array<{ depth: number; title: string; id: string }> = [];
  let pageTitle = page.replace(/\.md$/, '');
  let current = open(page, { depth: 0, title: pageTitle, anchor: '', heading: pageTitle }, null);
  let raw: string[] = [];
  let prose: string[] = [];
  let code: string[] = [];

  const close = () => {
    const text = [...prose, ...code].join('\n');
    if (current.depth > 0 || text.trim()) {
      const all = raw.join('\n');
      current.sentences = prose.flatMap(splitSentences);
      current.text = text;
      current.routes = unique([...all.matchAll(ROUTE)].map((m) => `${m[1]} ${m[2]}`));
      current.configs = unique(all.match(CONFIG) ?? []);
      current.codes = unique(
        [...all.matchAll(CODE)]
          .map((m) => m[1]!.trim())
          .filter((c) => !/^(GET|POST|PUT|PATCH|DELETE|WS)\s/.test(c) && !/^ORRERY_/.test(c)),
      );
      current.links = unique(
        [...all.matchAll(LINK)].flatMap((m) => {
          const d = DOC_HREF.exec(m[1]!);
          if (!d || (!d[1] && !d[2])) return [];
          return [`${d[1] ?? page}${d[2] ?? ''}`];
        }),
      );
      out.push(current);
    }
    raw = [];
    prose = [];
    code = [];
  };

  for (const token of marked.lexer(markdown)) {
    if (token.type === 'heading') {
      close();
      const h = token as Tokens.Heading;
      const title = plain(h.text);
      if (h.depth === 1 && out.length === 0) pageTitle = title;
      while (path.length && path[path.length - 1]!.depth >= h.depth) path.pop();
      const heading = [pageTitle, ...path.map((p) => p.title), ...(h.depth > 1 ? [title] : [])]
        .filter((t, i, a) => i === 0 || t !== a[0])
        .join(' > ');
      const parent = path.length ? path[path.length - 1]!.id : null;
      current = open(page, { depth: h.depth, title, anchor: slug(h.text), heading }, parent);
      path.push({ depth: h.depth, title, id: current.id });
      raw.push(h.text);
      continue;
    }
    raw.push(token.raw);
    if (token.type === 'code') code.push((token as Tokens.Code).text);
    else if (token.type === 'list' && prose.at(-1)?.endsWith(':')) {
      // "…holds when all of these hold:" says nothing without its list: one sentence with it.
      const items = blockText(token).map((i) => i.replace(/[;,.]+$/, ''));
      prose.push(`${prose.pop()!} ${items.join('; ')}.`);
    } else prose.push(...blockText(token));
  }
  close();
  return out;
}

function open(
  page: string,
  h: { depth: number; title: string; anchor: string; heading: string },
  parent: string | null,
): DocSection {
  const hash = h.anchor ? `#${h.anchor}` : '';
  return {
    id: `${page}${hash}`,
    page,
    heading: h.heading,
    url: `/docs/${page}${hash}`,
    text: '',
    depth: h.depth,
    parent,
    title: h.title,
    sentences: [],
    links: [],
    codes: [],
    routes: [],
    configs: [],
  };
}

/** The readable text of a block: paragraphs whole, list items and table rows one each. */
function blockText(token: Token): string[] {
  switch (token.type) {
    case 'paragraph':
    case 'text':
      return [(token as Tokens.Paragraph).text];
    case 'list':
      return (token as Tokens.List).items.map((i) => i.text.replace(/\s*\n\s*/g, ' '));
    case 'blockquote':
      return (token as Tokens.Blockquote).tokens.flatMap(blockText);
    case 'table': {
      const t = token as Tokens.Table;
      return t.rows.map((r) => `${r.map((c) => c.text).join(' — ')}.`);
    }
    default:
      return [];
  }
}
