// The llm-inference app's program: llama.cpp (node-llama-cpp, CPU) serving a GGUF model with an
// OpenAI-compatible API: GET /v1/models, POST /v1/chat/completions (Server-Sent Events with
// `"stream": true`), POST /v1/embeddings, and at its root a page that lists the models and tries
// one (chat.html), which is what Open shows. It listens only once the model is loaded, so the job's
// endpoint means ready. With LLM_API_KEY set, /v1 asks for the key as `Authorization: Bearer <key>`
// or `X-API-Key: <key>`: Orrery's ingress never forwards Authorization (a platform token must not
// reach an app), so through it only the second travels.
import { createServer } from 'node:http';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { getLlama, LlamaChatSession } from 'node-llama-cpp';

const port = Number(process.env.PORT || 8000);
const modelPath = process.env.MODEL_PATH;
const modelId = process.env.MODEL_ID || 'model';
const apiKey = process.env.LLM_API_KEY || '';
const contextSize = Number(process.env.CONTEXT_SIZE || 2048);
/** Tokens of an answer when the request sets no max_tokens. */
const DEFAULT_MAX_TOKENS = 256;
/** A request body larger than this is refused (prompts, embedding inputs). */
const MAX_BODY = 4 * 1024 * 1024;

if (!modelPath) throw new Error('MODEL_PATH is not set');
/**
 * What Open shows at the root: the models and a form to try one (chat.html), in place of the
 * API's 404. The page says whether the API asks for the key, never the key itself.
 */
const page = readFileSync(new URL('chat.html', import.meta.url), 'utf8').replace(
  '__KEY_REQUIRED__',
  apiKey ? 'true' : 'false',
);
// Never build or download llama.cpp at run time: the prebuilt CPU binary or nothing.
const llama = await getLlama({
  gpu: false,
  build: 'never',
  skipDownload: true,
  progressLogs: false,
});
const model = await llama.loadModel({ modelPath });
const context = await model.createContext({
  contextSize: Math.min(contextSize, model.trainContextSize),
});
let embeddings = null;
const created = Math.floor(Date.now() / 1000);

/** One generation at a time: the context has one sequence, and 2 cores gain nothing from more. */
let queue = Promise.resolve();
const serially = (fn) => {
  const run = queue.then(fn, fn);
  // The caller gets `run`'s failure; the queue only waits for it to settle.
  queue = run.catch(() => undefined);
  return run;
};

class HttpError extends Error {
  constructor(status, message, type = 'invalid_request_error') {
    super(message);
    this.status = status;
    this.type = type;
  }
}

const text = (content) =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p) => (p?.type === 'text' ? String(p.text ?? '') : '')).join('')
      : '';

/** The prompt, history and options of a chat request; a 400 for what cannot be answered. */
function chatRequest(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last = messages.at(-1);
  if (!last || last.role !== 'user') {
    throw new HttpError(400, 'messages must end with a user message');
  }
  const system = messages.filter((m) => m.role === 'system').map((m) => text(m.content));
  const history = messages
    .slice(0, -1)
    .flatMap((m) =>
      m.role === 'user'
        ? [{ type: 'user', text: text(m.content) }]
        : m.role === 'assistant'
          ? [{ type: 'model', response: [text(m.content)] }]
          : [],
    );
  return {
    messages,
    system: system.join('\n'),
    history,
    prompt: text(last.content),
    maxTokens: Number.isInteger(body.max_tokens) ? body.max_tokens : DEFAULT_MAX_TOKENS,
    temperature: typeof body.temperature === 'number' ? body.temperature : 0.7,
    // OpenAI's `seed`: the same request with the same seed samples the same answer.
    seed: Number.isInteger(body.seed) ? body.seed : undefined,
  };
}

/**
 * Generates the answer to a chatRequest(), handing each piece of text to `onTextChunk` as
 * llama.cpp decodes it; stops early when `signal` aborts (the client went away).
 */
function generate(req, { onTextChunk, signal } = {}) {
  return serially(async () => {
    const sequence = context.getSequence();
    try {
      const session = new LlamaChatSession({
        contextSequence: sequence,
        systemPrompt: req.system || undefined,
      });
      session.setChatHistory([
        ...(req.system ? [{ type: 'system', text: req.system }] : []),
        ...req.history,
      ]);
      let completionTokens = 0;
      const meta = await session.promptWithMeta(req.prompt, {
        maxTokens: req.maxTokens,
        temperature: req.temperature,
        seed: req.seed,
        onToken: (tokens) => (completionTokens += tokens.length),
        onTextChunk,
        signal,
        stopOnAbortSignal: true,
      });
      const promptTokens = model.tokenize(
        req.messages.map((m) => text(m.content)).join('\n'),
      ).length;
      return {
        text: meta.responseText,
        finishReason: meta.stopReason === 'maxTokens' ? 'length' : 'stop',
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
      };
    } finally {
      sequence.dispose();
    }
  });
}

async function chat(body) {
  const answer = await generate(chatRequest(body));
  return {
    id: `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: modelId,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: answer.text },
        finish_reason: answer.finishReason,
      },
    ],
    usage: answer.usage,
  };
}

/**
 * `"stream": true`: Server-Sent Events in OpenAI's format, one `chat.completion.chunk` per piece
 * of text as it is decoded (the role first, the finish reason last), then `data: [DONE]`.
 * Errors found before the first byte are answered as JSON like any other.
 */
async function chatStream(body, req, res) {
  const request = chatRequest(body);
  const id = `chatcmpl-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const event = (data) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const chunk = (delta, finishReason = null) =>
    event({
      id,
      object: 'chat.completion.chunk',
      created,
      model: modelId,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    // Proxies in front of Orrery (nginx) would otherwise hold the events back.
    'x-accel-buffering': 'no',
  });
  chunk({ role: 'assistant', content: '' });
  try {
    const answer = await generate(request, {
      onTextChunk: (t) => t && chunk({ content: t }),
      signal: gone.signal,
    });
    chunk({}, answer.finishReason);
    if (body.stream_options?.include_usage) {
      event({
        id,
        object: 'chat.completion.chunk',
        created,
        model: modelId,
        choices: [],
        usage: answer.usage,
      });
    }
  } catch (e) {
    // The status is sent already: the error travels as an event, as OpenAI's API does.
    event({ error: { message: e.message, type: 'server_error' } });
  }
  res.end('data: [DONE]\n\n');
}

async function embed(body) {
  const inputs = typeof body.input === 'string' ? [body.input] : body.input;
  if (
    !Array.isArray(inputs) ||
    inputs.length === 0 ||
    !inputs.every((i) => typeof i === 'string')
  ) {
    throw new HttpError(400, 'input must be a string or an array of strings');
  }
  return serially(async () => {
    embeddings ??= await model.createEmbeddingContext({
      contextSize: Math.min(contextSize, model.trainContextSize),
    });
    const data = [];
    let tokens = 0;
    for (const [index, input] of inputs.entries()) {
      const e = await embeddings.getEmbeddingFor(input);
      tokens += model.tokenize(input).length;
      data.push({ object: 'embedding', index, embedding: [...e.vector] });
    }
    return {
      object: 'list',
      data,
      model: modelId,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    };
  });
}

function authorized(req) {
  if (!apiKey) return true;
  const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
  const given = Buffer.from(String(req.headers['x-api-key'] ?? bearer ?? ''));
  const want = Buffer.from(apiKey);
  return given.length === want.length && timingSafeEqual(given, want);
}

async function readJson(req) {
  const chunks = [];
  let size = 0;
  for await (const c of req) {
    size += c.length;
    if (size > MAX_BODY) throw new HttpError(413, 'Request body too large');
    chunks.push(c);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    throw new HttpError(400, 'The body is not JSON');
  }
}

/** What a route answers when it has written its response itself (a stream). */
const STREAMED = Symbol('streamed');

const routes = {
  'GET /health': async () => ({ status: 'ok' }),
  'GET /v1/models': async () => ({
    object: 'list',
    data: [{ id: modelId, object: 'model', created, owned_by: 'orrery' }],
  }),
  'POST /v1/chat/completions': async (req, res) => {
    const body = await readJson(req);
    if (body.stream !== true) return chat(body);
    await chatStream(body, req, res);
    return STREAMED;
  },
  'POST /v1/embeddings': async (req) => embed(await readJson(req)),
};

const server = createServer(async (req, res) => {
  const path = new URL(req.url, 'http://x').pathname.replace(/\/$/, '');
  const route = routes[`${req.method} ${path}`];
  const send = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if ((req.method === 'GET' || req.method === 'HEAD') && path === '') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    return res.end(req.method === 'HEAD' ? undefined : page);
  }
  try {
    if (!route) throw new HttpError(404, `No route ${req.method} ${path}`);
    if (path.startsWith('/v1') && !authorized(req)) {
      throw new HttpError(401, 'Invalid API key', 'authentication_error');
    }
    const answer = await route(req, res);
    if (answer !== STREAMED) send(200, answer);
  } catch (e) {
    if (res.headersSent) return res.end();
    const status = e instanceof HttpError ? e.status : 500;
    send(status, { error: { message: e.message, type: e.type ?? 'server_error' } });
  }
});
server.listen(port, '0.0.0.0', () => console.log(`llm-inference: ${modelId} on ${port}`));
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => process.exit(0));
