import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A STAND-IN for an OpenAI-compatible model server (vLLM, llama.cpp's server, OpenAI): no model
 * runs here, so a test scripts each completion. It listens on loopback, records every request
 * (path, headers, parsed body) and answers `POST /v1/chat/completions` with what `reply` returns
 * for that request's messages, or with the status it returns. `GET /v1/models` lists one model.
 */
export interface StandInRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: { model?: string; messages?: Array<{ role: string; content: string }> } | null;
  raw: string;
}

export type Reply =
  | string
  | { status: number }
  | { hang: true }
  | ((messages: Array<{ role: string; content: string }>) => string | { status: number });

export interface StandIn {
  url: string;
  requests: StandInRequest[];
  /** Replies in order, one per completion; the last one repeats. */
  script(...replies: Reply[]): void;
  close(): Promise<void>;
}

export async function startOpenAiStandIn(): Promise<StandIn> {
  const requests: StandInRequest[] = [];
  let replies: Reply[] = ['{}'];
  let turn = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      let body: StandInRequest['body'] = null;
      try {
        body = raw ? (JSON.parse(raw) as StandInRequest['body']) : null;
      } catch {
        body = null;
      }
      requests.push({ path: req.url ?? '', headers: req.headers, body, raw });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'GET' && req.url === '/v1/models') {
        return send(200, { object: 'list', data: [{ id: 'stand-in-model', object: 'model' }] });
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        return send(404, { error: { message: 'not found' } });
      }
      const step = replies[Math.min(turn, replies.length - 1)]!;
      turn += 1;
      if (typeof step === 'object' && 'hang' in step) return; // never answers
      const out = typeof step === 'function' ? step(body?.messages ?? []) : step;
      if (typeof out === 'object') return send(out.status, { error: { message: 'scripted' } });
      send(200, {
        id: `chatcmpl-${turn}`,
        object: 'chat.completion',
        model: body?.model ?? 'stand-in-model',
        choices: [
          { index: 0, message: { role: 'assistant', content: out }, finish_reason: 'stop' },
        ],
      });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(...r) {
      replies = r;
      turn = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
