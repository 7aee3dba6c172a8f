import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../../../test/harness.js';
import { call, processServer } from '../../../../test/fixtures.js';
import {
  installApp,
  openSession,
  outsiderOf,
  uninstallApp,
  urlOf,
} from '../../../../test/app-instance.js';
import { tinyLlamaGguf } from '../../../../test/tiny-gguf.js';
import { apiKeyKey, llmInferenceRunner } from './runner.js';

interface ChatAnswer {
  object: string;
  choices: { message: { role: string; content: string }; finish_reason: string }[];
  usage: { completion_tokens: number };
}
interface ChatChunk {
  id: string;
  object: string;
  model: string;
  choices: { delta: { role?: string; content?: string }; finish_reason: string | null }[];
}

/**
 * The `data:` payloads of a Server-Sent Events response, read from its body as they arrive;
 * `enough` stops reading early and closes the connection.
 */
async function serverSentEvents(r: Response, enough = (_events: string[]) => false) {
  const events: string[] = [];
  let buffered = '';
  const decoder = new TextDecoder();
  const reader = r.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const event = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (event.startsWith('data: ')) events.push(event.slice('data: '.length));
    }
    if (enough(events)) {
      await reader.cancel();
      return events;
    }
  }
  expect(buffered).toBe('');
  return events;
}

/**
 * The llm-inference template on the process runtime: llama.cpp serving a GGUF from Files. The
 * model is a stand-in made by the test (tiny-gguf.ts, random weights): its answers are noise,
 * but they come from llama.cpp running it.
 */
describe.skipIf(llmInferenceRunner.unavailable!('process') !== null)(
  'llm-inference template',
  () => {
    let s: TestServer;
    let owner: TestUser;
    let outsider: TestUser;
    const model = { model: { files_path: { path: 'storage:models/tiny.gguf' } } };

    processServer((x) => ({ s, owner } = x));
    beforeAll(async () => {
      outsider = await outsiderOf(s);
      const put = await s.app.inject({
        method: 'PUT',
        url: '/api/v1/storage/acme/vision/models/tiny.gguf?op=CREATE',
        headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
        payload: tinyLlamaGguf(),
      });
      expect(put.statusCode).toBe(201);
    });

    const post = (url: string, headers: Record<string, string>, body: unknown) =>
      fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    it('installs, serves chat completions and embeddings from the chosen GGUF behind the session, uninstalls', async () => {
      const app = await installApp(s, owner, 'llm-inference', 'llm', model);
      expect(app.outputs.llm_api_key).toBeNull();
      const chatApi = app.outputs.chat_external_api;
      const base = `${urlOf(chatApi).replace(/\/$/, '')}${chatApi.api_base_path}`;
      expect(base).toBe(`${app.url}v1`);
      expect(`${urlOf(app.outputs.embeddings_external_api).replace(/\/$/, '')}/v1`).toBe(base);
      const session = await openSession(s, app.url!, owner);
      const models = await fetch(`${base}/models`, { headers: session });
      expect(models.status).toBe(200);
      expect(await models.json()).toMatchObject({ data: [{ id: 'tiny', object: 'model' }] });
      // Open lands on the root: a page to try the model, not the API's 404.
      const root = await fetch(app.url!, { headers: session });
      expect(root.status).toBe(200);
      expect(root.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await root.text();
      expect(html).toContain('<title>LLM Inference</title>');
      expect(html).toContain('<body data-key-required="false">');
      // Without a session, and signed in to another organization: the ingress answers as to no one.
      expect((await fetch(`${base}/models`)).status).toBe(401);
      expect((await fetch(`${base}/models`, { headers: outsider.headers })).status).toBe(404);

      const chat = await post(`${base}/chat/completions`, session, {
        model: 'tiny',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'hello world' },
        ],
        max_tokens: 6,
      });
      expect(chat.status).toBe(200);
      const answer = (await chat.json()) as ChatAnswer;
      expect(answer.object).toBe('chat.completion');
      expect(answer.choices[0].message.role).toBe('assistant');
      expect(answer.usage.completion_tokens).toBeGreaterThan(0);
      expect(answer.usage.completion_tokens).toBeLessThanOrEqual(6);

      // Streamed: OpenAI's Server-Sent Events through the ingress, read as they come.
      const stream = await post(`${base}/chat/completions`, session, {
        model: 'tiny',
        messages: [{ role: 'user', content: 'hello world' }],
        max_tokens: 6,
        seed: 7,
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toBe('text/event-stream');
      const events = await serverSentEvents(stream);
      expect(events.at(-1)).toBe('[DONE]');
      const usage = JSON.parse(events.at(-2)!) as ChatChunk & ChatAnswer;
      expect(usage.choices).toEqual([]);
      expect(usage.usage.completion_tokens).toBe(6);
      const chunks = events.slice(0, -2).map((e) => JSON.parse(e) as ChatChunk);
      expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
      const pieces = chunks.flatMap((c) => c.choices[0].delta.content || []);
      expect(pieces.length).toBeGreaterThanOrEqual(2);
      for (const c of chunks)
        expect(c).toMatchObject({ object: 'chat.completion.chunk', model: 'tiny' });
      expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
      expect(chunks.at(-1)!.choices[0]).toMatchObject({ delta: {}, finish_reason: 'length' });
      // The same request unstreamed, with the same seed: the same text.
      const whole = await post(`${base}/chat/completions`, session, {
        messages: [{ role: 'user', content: 'hello world' }],
        max_tokens: 6,
        seed: 7,
      });
      expect(((await whole.json()) as ChatAnswer).choices[0].message.content).toBe(pieces.join(''));

      // A long answer read as it comes, then left: the chunks were not held back by the ingress
      // (the whole answer would take minutes), and the server stops generating when the client
      // goes, or the embeddings below would wait behind it.
      // The seed above gave six tokens before any end of text, so the stream cannot end first.
      const long = await post(`${base}/chat/completions`, session, {
        messages: [{ role: 'user', content: 'hello world' }],
        max_tokens: 100_000,
        seed: 7,
        stream: true,
      });
      const first = await serverSentEvents(long, (e) => e.length >= 3);
      expect(
        first.slice(1).map((e) => (JSON.parse(e) as ChatChunk).choices[0].delta.content),
      ).toEqual([expect.any(String), expect.any(String)]);

      const emb = await post(`${base}/embeddings`, session, { input: ['hello', 'world'] });
      expect(emb.status).toBe(200);
      const vectors = ((await emb.json()) as { data: { embedding: number[] }[] }).data;
      expect(vectors.map((v) => v.embedding.length)).toEqual([64, 64]);
      expect(vectors[0].embedding).not.toEqual(vectors[1].embedding);

      const bad = await post(`${base}/chat/completions`, session, { messages: [] });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({
        error: { message: 'messages must end with a user message' },
      });
      await uninstallApp(s, owner, app);
    }, 90_000);

    it('asks for the generated API key when the endpoint is public (no_auth)', async () => {
      const input = { ...model, ingress_http: { auth: { type: 'no_auth' } } };
      const app = await installApp(s, owner, 'llm-inference', 'open', input);
      expect(app.outputs.llm_api_key).toEqual({
        key: apiKeyKey({ name: 'open' }),
        __type__: 'ApoloSecret',
      });
      const secret = await call(
        s,
        'GET',
        `/api/v1/secrets/${app.outputs.llm_api_key.key}?org_name=acme&project_name=vision`,
        owner,
      );
      const key = Buffer.from(secret.body.value, 'base64').toString();
      const base = `${app.url}v1`;
      expect((await fetch(`${base}/models`)).status).toBe(401);
      // Its page is public like the endpoint, and asks for the key, which it does not hold.
      const html = await (await fetch(app.url!)).text();
      expect(html).toContain('<body data-key-required="true">');
      expect(html).not.toContain(key);
      // The key travels as X-API-Key, as the template documents.
      const withKey = await fetch(`${base}/models`, { headers: { 'x-api-key': key } });
      expect(withKey.status).toBe(200);
      const wrong = await fetch(`${base}/models`, { headers: { 'x-api-key': `${key}x` } });
      expect(wrong.status).toBe(401);
      await uninstallApp(s, owner, app);
    });
  },
);
