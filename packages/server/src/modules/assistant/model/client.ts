/**
 * A client of an OpenAI-compatible chat API (`POST {base}/v1/chat/completions`, non-streaming):
 * vLLM, llama.cpp's server, Ollama, OpenAI, or an llm-inference app on Orrery itself. Every way a
 * call can fail (refused, timed out, a non-2xx, a body without a message) is a `ModelError`, so
 * that the answerer can hand the question to the embedded engine.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ModelEndpoint {
  /** Base URL, with or without its trailing `/v1`. */
  url: string;
  apiKey?: string;
  /** Unset: the first model the API lists at `/v1/models`. */
  model?: string;
  /** Where the endpoint came from, for logs (never the key). */
  label: string;
  /** The model's context window in tokens, when known (an llm-inference app's setting). */
  contextTokens?: number;
}

export class ModelError extends Error {}

/** A request that takes longer is abandoned: the user waits for the fallback, not forever. */
export const MODEL_TIMEOUT_MS = 30_000;

/** Tokens a reply may take: a JSON verdict is short, an answer a few paragraphs. */
export const JSON_REPLY_TOKENS = 300;
export const ANSWER_TOKENS = 800;

export interface ChatClient {
  readonly label: string;
  complete(messages: ChatMessage[], opts?: { json?: boolean }): Promise<string>;
  /** The context window, once known (after the first call for an app found on first use). */
  contextTokens(): number | undefined;
}

const v1Of = (url: string) => {
  const base = url.replace(/\/+$/, '');
  return /\/v1$/.test(base) ? base : `${base}/v1`;
};

export function chatClient(endpoint: ModelEndpoint, timeoutMs = MODEL_TIMEOUT_MS): ChatClient {
  const v1 = v1Of(endpoint.url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  let model: Promise<string> | null = endpoint.model ? Promise.resolve(endpoint.model) : null;

  const request = async (path: string, body?: unknown): Promise<unknown> => {
    let res: Response;
    try {
      res = await fetch(`${v1}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const err = e as Error;
      throw new ModelError(
        err.name === 'TimeoutError'
          ? `no answer within ${timeoutMs / 1000} s`
          : `unreachable (${err.message})`,
      );
    }
    const text = await res.text().catch(() => '');
    // The status only: an error body may echo the request, and logs carry no conversations.
    if (!res.ok) throw new ModelError(`answered ${res.status}`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ModelError('answered something other than JSON');
    }
  };

  const modelName = () => {
    model ??= request('/models').then((r) => {
      const id = (r as { data?: Array<{ id?: unknown }> }).data?.[0]?.id;
      if (typeof id !== 'string') throw new ModelError('lists no model at /v1/models');
      return id;
    });
    // A failed look-up is tried again on the next question.
    model.catch(() => (model = null));
    return model;
  };

  return {
    label: endpoint.label,
    contextTokens: () => endpoint.contextTokens,
    async complete(messages, opts = {}) {
      const r = (await request('/chat/completions', {
        model: await modelName(),
        messages,
        temperature: 0,
        stream: false,
        max_tokens: opts.json ? JSON_REPLY_TOKENS : ANSWER_TOKENS,
        ...(opts.json ? { response_format: { type: 'json_object' } } : {}),
      })) as { choices?: Array<{ message?: { content?: unknown } }> };
      const content = r.choices?.[0]?.message?.content;
      if (typeof content !== 'string' || !content.trim()) {
        throw new ModelError('answered without a message');
      }
      return content;
    },
  };
}

/** The first JSON object in a model's text (models wrap it in prose or code fences). */
export function jsonOf(text: string): Record<string, unknown> {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start >= 0 && end > start) {
    try {
      const v = JSON.parse(text.slice(start, end + 1)) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // falls through to the error below
    }
  }
  throw new ModelError('answered without the JSON it was asked for');
}
