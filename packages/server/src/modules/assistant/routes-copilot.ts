import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RawData } from 'ws';
import {
  COPILOT_TEXTS,
  COPILOT_WS_PATH,
  CopilotQuery,
  type CopilotServerMessage,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { grantsOf } from '../../auth/permissions.js';
import { requireUser, type Principal } from '../../auth/principal.js';
import { HttpError } from '../../http/errors.js';
import { badTextIn } from '../../http/text-guard.js';
import { rateLimitText, type RateLimiter } from './rate-limit.js';
import type { Answerer, Asker } from './types.js';

export const SOCKET_TEXTS = {
  notJson: 'A message must be a JSON object: {"message": "…"}',
  failed: 'The assistant could not answer this question; please try again',
} as const;

/** A frame larger than this is refused unread (1000 characters plus a history of 50 turns). */
const MAX_FRAME = 2 * 2 ** 20;
/** How long what was meant for a dropped socket waits for the same conversation to reconnect. */
export const HOLD_MS = 60_000;

export interface SocketDeps {
  ctx: AppContext;
  answererFor(asker: Asker): Promise<Answerer>;
  limiter: RateLimiter;
  /** Told of each socket opened, before its first question (the knowledge is built then). */
  onOpen?: () => void;
}

/** What a client sent, as a query, or the text of the `error` that answers it. */
export function readQuery(data: RawData): CopilotQuery | string {
  const raw = Buffer.isBuffer(data) ? data : Buffer.concat([data].flat() as Buffer[]);
  if (raw.length > MAX_FRAME) return COPILOT_TEXTS.tooLong;
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return SOCKET_TEXTS.notJson;
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return SOCKET_TEXTS.notJson;
  const parsed = CopilotQuery.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // A missing or non-text message is an empty one, as far as the user can tell.
    return issue.path[0] === 'message' && issue.code === 'invalid_type'
      ? COPILOT_TEXTS.empty
      : issue.message;
  }
  const bad = badTextIn(parsed.data, 'query');
  return bad ? `${bad.path.replace(/^query\./, '')} ${bad.reason}` : parsed.data;
}

/**
 * Messages for a conversation whose socket dropped while it was being answered, kept for the
 * same user's reconnection with the same `key` (on this replica) for HOLD_MS.
 */
class Held {
  private readonly held = new Map<string, { messages: string[]; until: number }>();
  keep(key: string, message: string) {
    const now = Date.now();
    for (const [k, v] of this.held) if (v.until < now) this.held.delete(k);
    const h = this.held.get(key) ?? { messages: [], until: 0 };
    h.messages.push(message);
    h.until = now + HOLD_MS;
    this.held.set(key, h);
  }
  take(key: string): string[] {
    const h = this.held.get(key);
    this.held.delete(key);
    return h && h.until >= Date.now() ? h.messages : [];
  }
}

/**
 * The copilot WebSocket: each text frame a question, answered by
 * `progress` frames (one per round of retrieval) and one `response` or `error`. Questions of one
 * socket are answered in turn. Logs carry sizes and timings, never what was asked or answered.
 */
export const copilotSocket =
  (deps: SocketDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const held = new Held();
    app.get(
      COPILOT_WS_PATH,
      {
        websocket: true,
        config: { access: 'user-or-token' },
        schema: { querystring: z.object({ key: z.string().max(200).optional() }) },
      },
      (socket, request) => {
        const principal = requireUser(request);
        // After this turn: the socket's open is answered first.
        if (deps.onOpen) setImmediate(deps.onOpen);
        const key = (request.query as { key?: string }).key;
        const heldKey = key ? `${principal.id}:${key}` : null;
        const send = (m: CopilotServerMessage) => {
          const text = JSON.stringify(m);
          if (socket.readyState === socket.OPEN) socket.send(text);
          else if (heldKey) held.keep(heldKey, text);
        };
        if (heldKey) for (const m of held.take(heldKey)) socket.send(m);
        let queue = Promise.resolve();
        socket.on('message', (data: RawData) => {
          queue = queue.then(() => ask(deps, principal, data, send, request.log));
        });
      },
    );
  };

async function ask(
  deps: SocketDeps,
  principal: Principal,
  data: RawData,
  send: (m: CopilotServerMessage) => void,
  log: FastifyBaseLogger,
) {
  const started = performance.now();
  const fail = (error: string) => send({ type: 'error', data: { error } });
  const query = readQuery(data);
  if (typeof query === 'string') return fail(query);
  const wait = await deps.limiter.take(principal.id);
  if (wait !== null)
    return fail(rateLimitText(deps.limiter.questions, deps.limiter.windowMs, wait));
  const sizes = {
    length: query.message.length,
    history: query.conversation_history.length,
    mode: query.mode,
    max_iterations: query.max_iterations,
  };
  try {
    // Permissions as they are now, not as when the socket opened.
    const asker: Asker = {
      principal,
      grants: await grantsOf(deps.ctx.db, principal),
      context: query.context ?? {},
    };
    const answerer = await deps.answererFor(asker);
    const answer = await answerer.answer({
      asker,
      message: query.message,
      history: query.conversation_history,
      mode: query.mode,
      maxIterations: query.max_iterations,
      onProgress: (iteration, message) =>
        send({
          type: 'progress',
          data: { iteration, max_iterations: query.max_iterations, message },
        }),
    });
    send({ type: 'response', data: answer });
    log.info(
      {
        copilot: {
          ...sizes,
          engine: answer.engine,
          iterations: answer.iterations,
          citations: answer.citations.length,
          plans: answer.plans.length,
          answer_length: answer.response.length,
          ms: Math.round(performance.now() - started),
        },
      },
      'copilot answered',
    );
  } catch (e) {
    if (e instanceof HttpError) return fail(e.message);
    // The error's own text may quote the question: only its kind is logged.
    log.error(
      { copilot: { ...sizes, failure: e instanceof Error ? e.name : typeof e } },
      'copilot failed',
    );
    fail(SOCKET_TEXTS.failed);
  }
}
