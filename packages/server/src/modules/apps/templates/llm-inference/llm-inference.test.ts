import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../../../test/harness.js';
import { call, tenancy } from '../../../../test/fixtures.js';
import { eventually, runPlan } from '../../../../test/app-plan.js';
import { tinyLlamaGguf } from '../../../../test/tiny-gguf.js';
import { apiKeyKey, llmInferenceRunner } from './runner.js';

/**
 * The llm-inference template on the process runtime: llama.cpp serving a GGUF from Files. The
 * model is a stand-in made by the test (tiny-gguf.ts, random weights): its answers are noise,
 * but they come from llama.cpp running it.
 */
describe.skipIf(llmInferenceRunner.unavailable!() !== null)('llm-inference template', () => {
  let s: TestServer;
  let owner: TestUser;
  const model = { model: { files_path: { path: 'storage:models/tiny.gguf' } } };

  beforeAll(async () => {
    s = await startTestServer({ ORRERY_RUNTIME: 'process' }, { listen: true });
    ({ owner } = await tenancy(s));
    const put = await s.app.inject({
      method: 'PUT',
      url: '/api/v1/storage/acme/vision/models/tiny.gguf?op=CREATE',
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: tinyLlamaGguf(),
    });
    expect(put.statusCode).toBe(201);
  });
  afterAll(() => s.stop());

  const post = (url: string, headers: Record<string, string>, body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const ready = (url: string, headers: Record<string, string>) =>
    eventually(async () => {
      const r = await fetch(url, { headers });
      if (r.status >= 500) throw new Error(`models ${r.status}`);
      return r;
    }, 300);

  it('serves chat completions and embeddings from the chosen GGUF behind the session', async () => {
    const { plan, jobs } = await runPlan(s, owner, llmInferenceRunner, model, 'llm');
    expect(plan.secrets).toEqual({});
    const base = `${s.url}/ingress/${jobs.main}/v1`;
    const models = await ready(`${base}/models`, owner.headers);
    expect(models.status).toBe(200);
    expect(await models.json()).toMatchObject({ data: [{ id: 'tiny', object: 'model' }] });
    expect((await fetch(`${base}/models`)).status).toBe(401);

    const chat = await post(`${base}/chat/completions`, owner.headers, {
      model: 'tiny',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello world' },
      ],
      max_tokens: 6,
    });
    expect(chat.status).toBe(200);
    const answer = (await chat.json()) as {
      object: string;
      choices: { message: { role: string; content: string }; finish_reason: string }[];
      usage: { completion_tokens: number };
    };
    expect(answer.object).toBe('chat.completion');
    expect(answer.choices[0].message.role).toBe('assistant');
    expect(answer.usage.completion_tokens).toBeGreaterThan(0);
    expect(answer.usage.completion_tokens).toBeLessThanOrEqual(6);

    const emb = await post(`${base}/embeddings`, owner.headers, { input: ['hello', 'world'] });
    expect(emb.status).toBe(200);
    const vectors = ((await emb.json()) as { data: { embedding: number[] }[] }).data;
    expect(vectors.map((v) => v.embedding.length)).toEqual([64, 64]);
    expect(vectors[0].embedding).not.toEqual(vectors[1].embedding);

    const bad = await post(`${base}/chat/completions`, owner.headers, { messages: [] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { message: 'messages must end with a user message' },
    });
    await call(s, 'DELETE', `/api/v1/jobs/${jobs.main}`, owner);
  });

  it('asks for the generated API key when the endpoint is public (no_auth)', async () => {
    const input = { ...model, ingress_http: { auth: { type: 'no_auth' } } };
    const { plan, ctx, jobs } = await runPlan(s, owner, llmInferenceRunner, input, 'open');
    const key = plan.secrets![apiKeyKey(ctx)];
    const base = `${s.url}/ingress/${jobs.main}/v1`;
    expect((await ready(`${base}/models`, {})).status).toBe(401);
    // The ingress keeps Authorization to itself: the key travels as X-API-Key.
    const withKey = await fetch(`${base}/models`, { headers: { 'x-api-key': key } });
    expect(withKey.status).toBe(200);
    const wrong = await fetch(`${base}/models`, { headers: { 'x-api-key': `${key}x` } });
    expect(wrong.status).toBe(401);
    const outputs = llmInferenceRunner.outputs(input, { ...ctx, endpoints: {} });
    expect(outputs.llm_api_key).toEqual({ key: apiKeyKey(ctx), __type__: 'ApoloSecret' });
    await call(s, 'DELETE', `/api/v1/jobs/${jobs.main}`, owner);
  });
});
