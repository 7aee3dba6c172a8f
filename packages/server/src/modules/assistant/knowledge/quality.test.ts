import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS_DIR, renderDoc } from '../../../http/docs.js';
import { loadKnowledge } from './index.js';
import { OFF_TOPIC, QUESTIONS } from './questions.fixture.js';

/** Retrieval over Orrery's own docs, as a user asks with the default settings. */
const kb = loadKnowledge();
const answer = (q: string) => kb.compose(q, kb.retrieve(q, { mode: 'hybrid', maxIterations: 3 }));
const pageOf = (url: string) => /^\/docs\/([^#]*)/.exec(url)?.[1];

describe('answers from the docs', () => {
  it('cites the page that answers the question in its top 3, for at least 17 of 20+', () => {
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(20);
    const misses = QUESTIONS.filter(([q, page]) => {
      const top = answer(q).citations.slice(0, 3);
      return !top.some((c) => pageOf(c.url) === page);
    });
    expect(QUESTIONS.length - misses.length, JSON.stringify(misses)).toBeGreaterThanOrEqual(17);
  });

  it('answers with sentences of the docs, each followed by its citation', () => {
    const a = answer('Why is my job pending?');
    expect(a.citations.length).toBeGreaterThan(0);
    expect(a.citations.length).toBeLessThanOrEqual(3);
    const sentences = a.response.split(/(?<=\[\d+\])\s+/);
    expect(sentences.length).toBeGreaterThanOrEqual(2);
    expect(sentences.length).toBeLessThanOrEqual(4);
    for (const s of sentences) expect(s).toMatch(/\[\d+\]$/);
    const docs = readFileSync(join(DOCS_DIR, 'jobs-api.md'), 'utf8');
    const fromScheduling = a.citations.find((c) => c.url === '/docs/jobs-api.md#scheduling');
    expect(fromScheduling?.title).toBe('Jobs: API, scheduling, ingress and metering > Scheduling');
    expect(docs.replace(/\s+/g, ' ').replace(/`/g, '')).toContain(
      fromScheduling!.snippet.slice(0, 40),
    );
  });

  it.each(OFF_TOPIC)('refuses "%s" and offers pages instead of citations', (q) => {
    const a = answer(q);
    expect(a.citations).toEqual([]);
    expect(a.response).toMatch(/^I could not find this in the documentation\./);
    expect(a.response).not.toMatch(/\[\d+\]/);
  });

  it('a refusal lists the nearest pages as links', () => {
    const a = answer('How do I bake a chocolate cake for the team?');
    expect(a.citations).toEqual([]);
    expect(a.response).toMatch(/The nearest pages: \[[^\]]+\]\(\/docs\/[\w.-]+\.md\)/);
  });

  it('tells small talk from questions', () => {
    for (const q of ['Hello!', 'hi there', 'Thanks a lot', 'thank you', 'Good morning', 'bye'])
      expect(kb.isSmallTalk(q), q).toBe(true);
    for (const q of ['hi, why is my job pending?', 'thanks, how do I buy credits?', 'jobs', ''])
      expect(kb.isSmallTalk(q), q).toBe(false);
  });
});

describe('citations link into the served docs', () => {
  const ids = new Map<string, Set<string>>();
  const idsOf = (page: string) => {
    if (!ids.has(page)) {
      const html = renderDoc(readFileSync(join(DOCS_DIR, page), 'utf8'));
      ids.set(page, new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!)));
    }
    return ids.get(page)!;
  };

  it('every anchor an answer cites is a heading id on its rendered page', () => {
    const urls = QUESTIONS.flatMap(([q]) => answer(q).citations.map((c) => c.url));
    expect(urls.length).toBeGreaterThan(QUESTIONS.length);
    for (const url of urls) {
      const [, page, anchor] = /^\/docs\/([^#]+)#(.+)$/.exec(url) ?? [];
      expect(page, url).toBeTruthy();
      expect(idsOf(page!), url).toContain(anchor);
    }
  });

  it('a repeated heading gets its own anchor', () => {
    const html = renderDoc('# A\n\n## Tabs\n\nx\n\n## Tabs\n\ny\n');
    expect(html).toContain('<h2 id="tabs">Tabs</h2>');
    expect(html).toContain('<h2 id="tabs-1">Tabs</h2>');
  });
});
