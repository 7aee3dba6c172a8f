import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CopilotMode } from '@orrery/contract';
import type { KnowledgeBase } from '../types.js';
import { loadKnowledge } from './index.js';

/**
 * Two small pages built so that each mode's route through them ends somewhere else, for the
 * question "How do I purge caches with frob-ctl during a maintenance window?":
 * - local (the entity `frob-ctl`): "Command line" and "Window planning" mention it;
 *   "Command line" covers more of the question.
 * - global (the themes: purge, caches, during, maintenance, window): the headings "Maintenance
 *   window" and "Window planning"; the first covers more.
 * - hybrid: "Window planning" is the only section both routes reach, which ranks it first.
 * - mix: direct search adds "Notes", which says everything but names no entity nor theme in a
 *   heading, so no graph route reaches it.
 */
const TOOLS = `# Tools

Helpers that operators run by hand.

## Command line

\`frob-ctl\` purges data during maintenance ([notes](ops.md#notes)).

## Window planning

\`frob-ctl\` can purge the caches the window plan lists, once the plan has been reviewed and signed by two operators of the team. It writes what it did to the audit log.

## Installing

Install the helpers with the package manager.
`;
const OPS = `# Operations

How the platform is run day to day.

## Maintenance window

Caches are flushed during this window, announced a week ahead.

## Notes

Operators purge stale caches during every maintenance window with the frob-ctl helper.
`;
const QUESTION = 'How do I purge caches with frob-ctl during a maintenance window?';

const dir = mkdtempSync(join(tmpdir(), 'orrery-knowledge-'));
writeFileSync(join(dir, 'tools.md'), TOOLS);
writeFileSync(join(dir, 'ops.md'), OPS);
const kb: KnowledgeBase = loadKnowledge({ docsDir: dir });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ask = (mode: CopilotMode, maxIterations = 1) => {
  const rounds: Array<[number, number]> = [];
  const retrieval = kb.retrieve(QUESTION, {
    mode,
    maxIterations,
    onRound: (r, added) => rounds.push([r, added]),
  });
  return { retrieval, rounds, answer: kb.compose(QUESTION, retrieval) };
};

describe('the four modes', () => {
  it.each([
    ['local', '/docs/tools.md#command-line'],
    ['global', '/docs/ops.md#maintenance-window'],
    ['hybrid', '/docs/tools.md#window-planning'],
    ['mix', '/docs/ops.md#notes'],
  ] as const)('%s answers first from %s', (mode, url) => {
    const { answer, retrieval } = ask(mode);
    expect(retrieval.mode).toBe(mode);
    expect(answer.citations[0]?.url).toBe(url);
    expect(answer.response).toMatch(/\[1\]/);
  });

  it('local goes through the entity, global through the headings', () => {
    const local = ask('local').retrieval;
    expect(local.entities).toContain('frob-ctl');
    expect(local.sections.map((s) => s.id)).not.toContain('ops.md#maintenance-window');
    const global = ask('global').retrieval;
    expect(global.relations.some((r) => r.includes('Maintenance window'))).toBe(true);
    expect(global.sections.map((s) => s.id)).not.toContain('tools.md#command-line');
  });

  it('hybrid holds both routes, local first; mix adds the direct search', () => {
    const hybrid = ask('hybrid').retrieval.sections.map((s) => s.id);
    const local = ask('local').retrieval.sections.map((s) => s.id);
    const global = ask('global').retrieval.sections.map((s) => s.id);
    expect(new Set(hybrid)).toEqual(new Set([...local, ...global]));
    expect(hybrid[0]).toBe(local[0]);
    expect(hybrid).not.toContain('ops.md#notes');
    expect(ask('mix').retrieval.sections.map((s) => s.id)).toContain('ops.md#notes');
  });
});

describe('iterations', () => {
  it('a round follows the links of the previous round, and stops when nothing new scores', () => {
    const one = ask('local', 1);
    expect(one.retrieval.rounds).toBe(1);
    expect(one.retrieval.sections.map((s) => s.id)).not.toContain('ops.md#notes');

    const five = ask('local', 5);
    const notes = five.retrieval.sections.find((s) => s.id === 'ops.md#notes');
    expect(notes?.round).toBe(2);
    // Round 3 finds nothing new above the threshold: no rounds 4 and 5.
    expect(five.retrieval.rounds).toBe(3);
    expect(five.rounds).toEqual([
      [1, expect.any(Number)],
      [2, 1],
      [3, 0],
    ]);
  });
});

describe('citations', () => {
  it('cite only sections of this retrieval', () => {
    for (const mode of ['local', 'global', 'hybrid', 'mix'] as const) {
      const { answer, retrieval } = ask(mode);
      const urls = new Set(retrieval.sections.map((s) => s.url));
      expect(answer.citations.length).toBeGreaterThan(0);
      for (const c of answer.citations) expect(urls).toContain(c.url);
      const markers = [...answer.response.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
      expect(new Set(markers)).toEqual(new Set(answer.citations.map((c) => c.n)));
    }
  });

  it('a section outside the retrieval is never cited, even when it would answer', () => {
    const local = ask('local').retrieval;
    const answer = kb.compose(QUESTION, {
      ...local,
      sections: local.sections.filter((s) => s.id !== 'tools.md#command-line'),
    });
    expect(answer.citations.map((c) => c.url)).not.toContain('/docs/tools.md#command-line');
  });

  it('nothing retrieved: a plain refusal with the nearest pages, no citation', () => {
    const answer = kb.compose('frob-ctl', {
      mode: 'hybrid',
      sections: [],
      entities: [],
      relations: [],
      rounds: 1,
    });
    expect(answer.citations).toEqual([]);
    expect(answer.response).toMatch(/^I could not find this in the documentation\./);
    expect(answer.response).toContain('](/docs/tools.md)');
    expect(answer.response).not.toMatch(/\[\d+\]/);
  });
});
