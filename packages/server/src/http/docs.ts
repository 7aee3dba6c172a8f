import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Marked, type Tokens } from 'marked';
import type { Config } from '../config.js';
import { brandingFor } from '../modules/config/branding.js';

export const DOCS_DIR = fileURLToPath(new URL('../../../../docs', import.meta.url));

/** Markdown inline markup removed: what a reader sees of a heading or a sentence. */
export function plainInline(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|\*)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/<[^>]+>/g, '')
    .trim();
}

/**
 * Heading ids, GitHub style ("The job page" → `the-job-page`, a repeat gets `-1`, `-2`): one per
 * page, used by the renderer below and by the assistant's citations, so a cited anchor always
 * exists on the served page.
 */
export function headingSlugger(): (heading: string) => string {
  const seen = new Map<string, number>();
  return (heading) => {
    const base = plainInline(heading)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  };
}

/** A page rendered with an id on every heading. */
export function renderDoc(markdown: string): string {
  const slug = headingSlugger();
  const marked = new Marked({
    renderer: {
      heading({ tokens, depth, text }: Tokens.Heading) {
        return `<h${depth} id="${slug(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
  return marked.parse(markdown, { async: false });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1f2328}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:left}
code,pre{background:#f6f8fa;border-radius:4px}pre{padding:.8rem;overflow:auto}a{color:#4263eb}</style>
</head><body>${body}</body></html>`;

/**
 * The user and operator documentation (`docs/*.md`), rendered at `/docs/`: the console's Docs
 * link. Only the files present at start are served, by exact name, so no path can escape. A page
 * is rendered when first asked for, not at start (rendering them all was a tenth of a start).
 */
export async function registerDocs(app: FastifyInstance, config: Config, dir = DOCS_DIR) {
  if (!existsSync(dir)) return;
  const pages = new Map<string, string | null>(
    readdirSync(dir)
      .filter((n) => n.endsWith('.md'))
      .map((f) => [f, null]),
  );
  const rendered = (name: string) => {
    if (!pages.has(name)) return null;
    let html = pages.get(name);
    if (html) return html;
    // A page removed since start (an upgrade in place) is not found, as any other.
    const markdown = existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : null;
    if (markdown !== null) pages.set(name, (html = renderDoc(markdown)));
    return html ?? null;
  };
  const send = (name: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const html = rendered(name);
    if (!html) return reply.status(404).send({ error: 'not_found', message: 'No such page' });
    const title = `${brandingFor(config, request.hostname).title} documentation`;
    return reply.type('text/html; charset=utf-8').send(page(title, html));
  };
  app.get('/docs', (_req, reply) => reply.redirect('/docs/'));
  app.get('/docs/', send('README.md'));
  app.get<{ Params: { page: string } }>('/docs/:page', (request, reply) =>
    send(request.params.page)(request, reply),
  );
}
