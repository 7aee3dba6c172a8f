import { WebSocket } from 'ws';
import { COPILOT_WS_PATH, COPILOT_WS_PROTOCOL, CopilotServerMessage } from '@orrery/contract';
import { grantsOf } from '../auth/permissions.js';
import type { Asker } from '../modules/assistant/types.js';
import type { TestServer, TestUser } from './harness.js';

/** One copilot socket, as the console opens it: the bearer offered as a sub-protocol. */
export interface CopilotClient {
  /** Sends a frame and collects what comes back up to (and with) the `response` or `error`. */
  ask(frame: unknown): Promise<CopilotServerMessage[]>;
  /** Sends a frame without waiting. */
  send(frame: unknown): void;
  /** The next messages up to a `response` or `error`. */
  next(): Promise<CopilotServerMessage[]>;
  /** How many messages arrived that no `next` took yet. */
  unread(): number;
  close(): Promise<void>;
}

export function openCopilot(s: TestServer, who: TestUser, key = 'k1'): Promise<CopilotClient> {
  const ws = new WebSocket(
    `${s.url.replace('http', 'ws')}${COPILOT_WS_PATH}?key=${encodeURIComponent(key)}`,
    [COPILOT_WS_PROTOCOL, `bearer.${who.token}`],
  );
  const inbox: CopilotServerMessage[] = [];
  let wake: (() => void) | null = null;
  ws.on('message', (data: Buffer) => {
    inbox.push(CopilotServerMessage.parse(JSON.parse(data.toString())));
    wake?.();
  });
  const next = async () => {
    const out: CopilotServerMessage[] = [];
    for (;;) {
      while (inbox.length) {
        const m = inbox.shift()!;
        out.push(m);
        if (m.type !== 'progress') return out;
      }
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no answer within 10 s')), 10_000);
        wake = () => {
          clearTimeout(timer);
          wake = null;
          resolve();
        };
      });
    }
  };
  const send = (frame: unknown) =>
    ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        send,
        next,
        unread: () => inbox.length,
        ask: (frame) => {
          send(frame);
          return next();
        },
        close: () =>
          new Promise((done) => {
            if (ws.readyState === ws.CLOSED) return done();
            ws.once('close', () => done());
            ws.close();
          }),
      }),
    );
  });
}

/** The answer at the end of an exchange (fails the test with what came instead). */
export function responseOf(messages: CopilotServerMessage[]) {
  const last = messages.at(-1)!;
  if (last.type !== 'response') throw new Error(`expected a response, got ${JSON.stringify(last)}`);
  return last.data;
}

/** The asker of a question as the socket makes it: the user, with their grants read now. */
export async function askerOf(s: TestServer, u: TestUser, context: Asker['context']) {
  const principal = {
    id: u.id,
    username: u.username,
    name: u.username,
    email: u.email,
    emailVerified: true,
    systemRole: null,
  };
  return { principal, grants: await grantsOf(s.ctx.db, principal), context } satisfies Asker;
}
