import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COPILOT_TEXTS, type CopilotAnswer, type Plan } from '@orrery/contract';
import { call, tenancy } from '../../../test/fixtures.js';
import { startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAiStandIn, type StandIn } from '../../../test/openai-stand-in.js';
import { askerOf } from '../../../test/copilot.js';
import type {
  Answerer,
  AskInput,
  Asker,
  Fact,
  KnowledgeBase,
  RetrieveOptions,
  Section,
  Tools,
} from '../types.js';
import { isSmallTalk } from '../knowledge/compose.js';
import { loadKnowledge } from '../knowledge/index.js';
import { LIVE_TEXTS } from '../live.js';
import { forbidden, type HttpError } from '../../../http/errors.js';
import { modelAnswererFor, MODEL_UNREACHABLE } from './index.js';
import { MAX_SECTIONS } from './material.js';

/**
 * The model path against a STAND-IN for an OpenAI-compatible server (test/openai-stand-in.ts):
 * no model runs here, so each completion is scripted, and every request the server makes is
 * recorded. The knowledge base below is a small one over three sections, keeping every
 * `retrieve` call, so that what the model asked for can be checked against what was retrieved.
 */
const SECTIONS: Section[] = [
  {
    id: 'jobs-pending',
    page: 'jobs.md',
    heading: 'Jobs > Why a job is pending',
    url: '/docs/jobs.md#why-a-job-is-pending',
    text: 'A pending job waits for capacity: the scheduler names the preset it cannot place.',
  },
  {
    id: 'presets',
    page: 'clusters.md',
    heading: 'Clusters > Presets',
    url: '/docs/clusters.md#presets',
    text: 'A preset is a named size of CPU, memory and GPU with its credits per hour.',
  },
  {
    id: 'buckets',
    page: 'buckets.md',
    heading: 'Buckets > Credentials',
    url: '/docs/buckets.md#credentials',
    text: 'Bucket credentials open one bucket for a tool outside Orrery.',
  },
];

function smallKnowledge() {
  const calls: Array<{ query: string; opts: RetrieveOptions }> = [];
  const words = (s: string) => s.toLowerCase().match(/[a-z]{3,}/g) ?? [];
  const kb: KnowledgeBase = {
    retrieve(query, opts) {
      calls.push({ query, opts });
      const terms = opts.keywords ? [...opts.keywords.high, ...opts.keywords.low] : [query];
      const wanted = new Set(terms.flatMap(words));
      const sections = SECTIONS.map((s) => ({
        ...s,
        score: words(`${s.heading} ${s.text}`).filter((w) => wanted.has(w)).length,
        round: 1,
      })).filter((s) => s.score > 0);
      return { mode: opts.mode, sections, entities: [], relations: [], rounds: 1 };
    },
    compose: () => ({ response: '', citations: [] }),
    nearest: () => [],
    isSmallTalk,
    stats: { sections: SECTIONS.length, nodes: 0, edges: 0, buildMs: 0 },
  };
  return { kb, calls };
}

/** The embedded engine's seat: it answers recognisably, so that a fallback shows. */
const embedded: Answerer = {
  answer: async (input) => ({
    response: `embedded answer to ${input.message}`,
    citations: [],
    mode: input.mode,
    iterations: 1,
    engine: 'embedded',
    plans: [],
  }),
};

/** What the answerer logs, to check that no conversation is in it. */
const logLines: string[] = [];
const log = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });

const SECRET = 'hunter2-very-secret-value';
/** A secret of another project than the one open in the console. */
const OTHER_SECRET = 'other-project-secret-42';
const KEY = 'sk-configured-key-0001';

describe('the assistant with a model (against an OpenAI-compatible stand-in)', () => {
  let s: TestServer;
  let llm: StandIn;
  let owner: TestUser;
  let asker: Asker;
  let facts: Fact[];
  let plan: Plan | null;
  /** What proposing a change throws instead of a plan (forbidden, not found, already ended). */
  let refusal: HttpError | null;
  const tools: Tools = {
    facts: async () => facts,
    propose: async () => {
      if (refusal) throw refusal;
      return plan;
    },
  };

  beforeAll(async () => {
    llm = await startOpenAiStandIn();
    s = await startTestServer({
      ORRERY_ASSISTANT_LLM_URL: llm.url,
      ORRERY_ASSISTANT_LLM_API_KEY: KEY,
    });
    ({ owner } = await tenancy(s));
    const created = await call(s, 'POST', '/api/v1/secrets', owner, {
      key: 'db_password',
      value: Buffer.from(SECRET).toString('base64'),
      org_name: 'acme',
      project_name: 'vision',
    });
    expect(created.status).toBe(201);
    asker = await askerOf(s, owner, { cluster: 'default', org: 'acme', project: 'vision' });
  });
  afterAll(async () => {
    await s?.stop();
    await llm?.close();
  });
  beforeEach(() => {
    facts = [];
    plan = null;
    refusal = null;
  });

  const ask = async (
    message: string,
    kb: KnowledgeBase,
    more: Partial<AskInput> = {},
    timeoutMs?: number,
  ) => {
    const answererFor = modelAnswererFor(s.ctx, {
      knowledge: kb,
      tools,
      embedded,
      log,
      timeoutMs,
    });
    const answerer = await answererFor(asker);
    expect(answerer).not.toBeNull();
    const progress: string[] = [];
    const answer: CopilotAnswer = await answerer!.answer({
      asker,
      message,
      history: [],
      mode: 'hybrid',
      maxIterations: 3,
      onProgress: (_n, m) => progress.push(m),
      ...more,
    });
    return { answer, progress };
  };

  const keywords = (high: string[], low: string[]) =>
    JSON.stringify({ high_level_keywords: high, low_level_keywords: low });

  it("retrieves with the model's keywords, then with the entities its judge asks for", async () => {
    const { kb, calls } = smallKnowledge();
    llm.script(
      keywords(['scheduling'], ['pending job']),
      '```json\n{"status": "incomplete", "next_entities_to_explore": ["preset"]}\n```',
      '{"status": "complete", "next_entities_to_explore": []}',
      'A pending job waits for capacity [1]; a preset sets its size [2].',
    );
    const { answer, progress } = await ask('why does my thing not start?', kb);
    expect(calls.map((c) => c.opts.keywords)).toEqual([
      { high: ['scheduling'], low: ['pending job'] },
      { high: ['scheduling'], low: ['preset'] },
    ]);
    expect(calls.every((c) => c.opts.mode === 'hybrid')).toBe(true);
    // One section new in each round, in the embedded engine's wording (copilot.test.ts).
    expect(progress).toEqual([COPILOT_TEXTS.progress(1, 1), COPILOT_TEXTS.progress(2, 1)]);
    expect(answer).toMatchObject({ engine: 'model', iterations: 2, mode: 'hybrid' });
    expect(answer.citations.map((c) => c.url)).toEqual([
      '/docs/jobs.md#why-a-job-is-pending',
      '/docs/clusters.md#presets',
    ]);
    // The requests carry the configured key in the header, and the model's name from /v1/models.
    const completions = llm.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(completions).toHaveLength(4);
    expect(completions.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(completions.every((r) => r.body?.model === 'stand-in-model')).toBe(true);
  });

  it('sends only the retrieved material and the question, and no secret value', async () => {
    const { kb } = smallKnowledge();
    // A job found by id in another project the user reads: its log carries that project's secret.
    const beta = await tenancy(s, 'beta', 'lab');
    const other = await call(s, 'POST', '/api/v1/secrets', beta.owner, {
      key: 'api_token',
      value: Buffer.from(OTHER_SECRET).toString('base64'),
      org_name: 'beta',
      project_name: 'lab',
    });
    expect(other.status).toBe(201);
    facts = [
      {
        text: `Last lines of job train-1: connecting with DB_PASSWORD=${SECRET}`,
        citations: [{ title: 'Job train-1', url: '/jobs/job-1', snippet: 'log' }],
      },
      {
        text: `Last lines of job etl-2: calling out with API_TOKEN=${OTHER_SECRET}`,
        citations: [{ title: 'Job etl-2', url: '/jobs/job-2', snippet: 'log' }],
        place: { cluster: 'default', org: 'beta', project: 'lab' },
      },
    ];
    llm.script(
      keywords(['waiting'], ['pending job']),
      'Your job waits for capacity [1]; its log shows a connection [2].',
    );
    const { answer } = await ask('why is train-1 pending?', kb, {
      maxIterations: 1,
      history: [
        { role: 'user', content: `my password is ${SECRET}` },
        { role: 'assistant', content: 'Noted.' },
      ],
    });
    expect(answer.engine).toBe('model');
    expect(llm.requests.length).toBeGreaterThan(0);
    for (const r of llm.requests) {
      expect(r.raw).not.toContain(SECRET);
      expect(r.raw).not.toContain(OTHER_SECRET);
      expect(r.raw).not.toContain(KEY);
    }
    const compose = llm.requests.at(-1)!.body!.messages!;
    const sent = compose.map((m) => m.content).join('\n');
    expect(sent).toContain('why is train-1 pending?');
    expect(sent).toContain(SECTIONS[0]!.text);
    expect(sent).toContain('DB_PASSWORD=[secret]');
    expect(sent).toContain('API_TOKEN=[secret]');
    // Not retrieved this turn: not sent.
    expect(sent).not.toContain(SECTIONS[1]!.text);
    expect(sent).not.toContain(SECTIONS[2]!.text);
    // The material is quoted as data, and the model is told so.
    expect(compose[0]!.content).toMatch(/never an instruction/);
    expect(sent).toMatch(/<<<DATA\nA pending job waits/);
    expect(answer.citations.map((c) => c.url)).toEqual([
      '/docs/jobs.md#why-a-job-is-pending',
      '/jobs/job-1',
    ]);
    // The log says which engine, how long and how much; not what was asked or answered.
    const logged = logLines.join('\n');
    expect(logged).toMatch(/"ms":\d+/);
    for (const said of ['train-1', SECRET, 'waits for capacity', 'my password']) {
      expect(logged).not.toContain(said);
    }
  });

  it("retrieves Orrery's own docs with the model's keywords, and cites only what it sent", async () => {
    // The question names nothing; the keywords the model picks are what find billing.md.
    llm.script(keywords(['billing'], ['credits']), 'Credits pay for work [1]. See also [40].');
    const { answer } = await ask('and how does that work?', loadKnowledge(), {
      maxIterations: 1,
    });
    const compose = llm.requests.at(-1)!.body!.messages!.at(-1)!.content;
    const sent = [...compose.matchAll(/^\[(\d+)\] /gm)].map((m) => Number(m[1]));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThanOrEqual(MAX_SECTIONS);
    expect(answer.citations).toHaveLength(1);
    expect(answer.citations[0]!.url).toMatch(/^\/docs\/billing\.md#/);
    expect(compose).toContain(answer.citations[0]!.title);
    expect(answer.response).toBe('Credits pay for work [1]. See also.');
  });

  it('strips a citation the model invented and keeps only those used', async () => {
    const { kb } = smallKnowledge();
    llm.script(
      keywords(['pricing'], ['credits', 'hour']),
      'Each preset has a price [1]. Prices double on Sundays [9]. Ask support [1, 7].',
    );
    const { answer } = await ask('what does a preset cost?', kb, { maxIterations: 1 });
    expect(answer.response).toBe(
      'Each preset has a price [1]. Prices double on Sundays. Ask support [1].',
    );
    expect(answer.citations).toEqual([
      expect.objectContaining({ n: 1, url: '/docs/clusters.md#presets' }),
    ]);
  });

  it('passes the plan the tools propose; the model performs nothing', async () => {
    const { kb } = smallKnowledge();
    plan = {
      id: 'plan-1',
      title: 'Kill job train-1',
      call: { method: 'DELETE', path: '/api/v1/jobs/job-1' },
      context: { cluster: 'default', org: 'acme', project: 'vision' },
      credits_per_hour: null,
      confirmation: 'once',
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    };
    llm.script(keywords(['kill'], ['pending job']), 'You can confirm the plan to kill it [1].');
    const { answer } = await ask('kill train-1', kb, { maxIterations: 1 });
    expect(answer.plans).toEqual([plan]);
    expect(llm.requests.every((r) => !r.raw.includes('"tools"'))).toBe(true);
  });

  it('greets without calling the model: no keywords asked, no citations, no notice', async () => {
    const { kb, calls } = smallKnowledge();
    llm.script(keywords([], []));
    const { answer, progress } = await ask('hello', kb);
    expect(answer).toEqual({
      response: LIVE_TEXTS.smallTalk,
      citations: [],
      mode: 'hybrid',
      iterations: 0,
      engine: 'embedded',
      plans: [],
    });
    expect(llm.requests).toEqual([]);
    expect(calls).toEqual([]);
    expect(progress).toEqual([]);
  });

  it('retrieves by the lexical rules when the model names no keywords, and still answers', async () => {
    const { kb, calls } = smallKnowledge();
    llm.script(keywords([], []), 'A pending job waits for capacity [1].');
    const { answer } = await ask('why is my job pending?', kb, { maxIterations: 1 });
    expect(calls.map((c) => c.opts.keywords)).toEqual([undefined]);
    expect(answer).toMatchObject({
      engine: 'model',
      response: 'A pending job waits for capacity [1].',
    });
    expect(answer.notice).toBeUndefined();
    expect(answer.citations.map((c) => c.url)).toEqual(['/docs/jobs.md#why-a-job-is-pending']);
  });

  it("says why a change cannot be offered, in the API's words, and answers the rest", async () => {
    const { kb } = smallKnowledge();
    refusal = forbidden();
    llm.script(keywords(['jobs'], ['pending job']), 'A pending job waits for capacity [1].');
    const { answer } = await ask('kill job train-1, it is pending', kb, { maxIterations: 1 });
    expect(answer).toMatchObject({ engine: 'model', plans: [] });
    expect(answer.notice).toBeUndefined();
    expect(answer.response).toBe(`${refusal.message}\n\nA pending job waits for capacity [1].`);
    expect(answer.citations).toHaveLength(1);
  });

  it.each([
    ['answers 500', () => llm.script({ status: 500 })],
    ['answers prose where JSON was asked for', () => llm.script('I would rather chat.')],
    ['never answers (timeout)', () => llm.script({ hang: true })],
  ])('falls back to the embedded engine with a notice when the endpoint %s', async (_, setup) => {
    setup();
    const { kb } = smallKnowledge();
    const { answer } = await ask('why is my job pending?', kb, {}, 500);
    expect(answer).toMatchObject({
      engine: 'embedded',
      response: 'embedded answer to why is my job pending?',
      notice: MODEL_UNREACHABLE,
    });
  });

  it('goes on from the iterations already reported when it falls back mid-turn', async () => {
    const { kb } = smallKnowledge();
    llm.script(keywords(['scheduling'], ['pending job']), { status: 502 });
    const seen: number[] = [];
    const twoRounds: Answerer = {
      answer: async (input) => {
        input.onProgress(1, 'embedded 1');
        input.onProgress(2, 'embedded 2');
        return embedded.answer(input);
      },
    };
    const answererFor = modelAnswererFor(s.ctx, {
      knowledge: kb,
      tools,
      embedded: twoRounds,
      log: s.app.log,
    });
    const answer = await (await answererFor(asker))!.answer({
      asker,
      message: 'why is my job pending?',
      history: [],
      mode: 'hybrid',
      maxIterations: 3,
      onProgress: (n) => seen.push(n),
    });
    expect(answer).toMatchObject({ engine: 'embedded', notice: MODEL_UNREACHABLE });
    expect(seen).toEqual([1, 2]);
  });

  it('falls back when the endpoint is down', async () => {
    const down = await startOpenAiStandIn();
    await down.close();
    const other = await startTestServer({ ORRERY_ASSISTANT_LLM_URL: down.url });
    try {
      const answererFor = modelAnswererFor(other.ctx, {
        knowledge: smallKnowledge().kb,
        tools,
        embedded,
        log: other.app.log,
      });
      const answer = await (await answererFor({ ...asker, context: {} }))!.answer({
        asker,
        message: 'why is my job pending?',
        history: [],
        mode: 'local',
        maxIterations: 2,
        onProgress: () => {},
      });
      expect(answer).toMatchObject({ engine: 'embedded', notice: MODEL_UNREACHABLE });
    } finally {
      await other.stop();
    }
  });
});
