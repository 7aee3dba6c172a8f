import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { marked } from 'marked';
import type { Config } from '../config.js';
import { brandingFor } from '../modules/config/branding.js';

export const DOCS_DIR = fileURLToPath(new URL('../../../../docs', import.meta.url));

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
 * link. Only the files present at start are served, by exact name, so no path can escape.
 */
export async function registerDocs(app: FastifyInstance, config: Config, dir = DOCS_DIR) {
  if (!existsSync(dir)) return;
  const pages = new Map<string, string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.md'))) {
    pages.set(f, await marked.parse(readFileSync(join(dir, f), 'utf8')));
  }
  const send = (name: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const html = pages.get(name);
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
