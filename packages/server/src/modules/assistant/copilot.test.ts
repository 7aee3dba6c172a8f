import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COPILOT_TEXTS,
  COPILOT_WS_PATH,
  COPILOT_WS_PROTOCOL,
  type CopilotAnswer,
} from '@orrery/contract';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { openCopilot, responseOf } from '../../test/copilot.js';
import { SOCKET_TEXTS } from './routes-copilot.js';

/**
 * The copilot WebSocket as the console uses it: questions answered with
 * progress then a response, each bad input with the contract's error on a socket that stays
 * usable, anonymous callers refused, a per-user rate limit, and logs without conversations.
 */
describe('copilot socket', () => {
  let s: TestServer;
  let alice: TestUser;
  const logLines: string[] = [];
  /** Answers held until the test lets them go (the reconnection test's slow answer). */
  let release: (() => void) | null = null;

  beforeAll(async () => {
    s = await startTestServer(
      {},
      {
        listen: true,
        logger: { level: 'info', stream: { write: (line: string) => void logLines.push(line) } },
        assistant: {
          // A model hook that answers only "slow …" questions, after the test releases them;
          // every other question goes to the embedded engine.
          modelAnswerer: async (asker) => {
            if (asker.principal.username.startsWith('broken')) throw new Error('no model here');
            return asker.principal.username.startsWith('slow')
              ? {
                  answer: async (): Promise<CopilotAnswer> => {
                    await new Promise<void>((r) => (release = r));
                    return {
                      response: 'held answer',
                      citations: [],
                      mode: 'hybrid',
                      iterations: 1,
                      engine: 'model',
                      plans: [],
                    };
                  },
                }
              : null;
          },
        },
      },
    );
    alice = await s.user();
  });
  afterAll(() => s.stop());

  it('answers a docs question with one progress per round, then a cited response', async () => {
    const c = await openCopilot(s, alice);
    const got = await c.ask({ message: 'How do I create a disk?', max_iterations: 2, mode: 'mix' });
    const answer = responseOf(got);
    const progress = got.filter((m) => m.type === 'progress');
    expect(progress.length).toBe(answer.iterations);
    expect(answer.iterations).toBeGreaterThanOrEqual(1);
    expect(answer.iterations).toBeLessThanOrEqual(2);
    progress.forEach((p, i) => {
      expect(p.data.iteration).toBe(i + 1);
      expect(p.data.max_iterations).toBe(2);
      // The wording the model engine sends too (model/answerer.test.ts), with this round's count.
      const added = Number(/: (\d+) new/.exec(p.data.message)?.[1]);
      expect(p.data.message).toBe(COPILOT_TEXTS.progress(i + 1, added));
    });
    expect(answer).toMatchObject({ engine: 'embedded', mode: 'mix', plans: [] });
    expect(answer.citations.length).toBeGreaterThan(0);
    expect(answer.citations.some((c) => c.url.startsWith('/docs/disks.md'))).toBe(true);
    for (const cite of answer.citations) expect(answer.response).toContain(`[${cite.n}]`);
    await c.close();
  });

  it('answers in hybrid mode with at most 3 iterations when the client leaves them out', async () => {
    const c = await openCopilot(s, alice);
    const got = await c.ask({ message: 'How do I create a disk?' });
    const answer = responseOf(got);
    // The documented defaults (docs/assistant.md), not the contract's constants, which could drift.
    expect(answer.mode).toBe('hybrid');
    const progress = got.filter((m) => m.type === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    for (const p of progress) expect(p.data.max_iterations).toBe(3);
    expect(answer.iterations).toBeLessThanOrEqual(3);
    await c.close();
  });

  it('greets without citations and without retrieving', async () => {
    const c = await openCopilot(s, alice);
    const answer = responseOf(await c.ask({ message: 'hello' }));
    expect(answer.citations).toEqual([]);
    expect(answer.iterations).toBe(0);
    expect(answer.response.length).toBeGreaterThan(0);
    await c.close();
  });

  it("answers each bad input with the contract's error, and the socket stays usable", async () => {
    const c = await openCopilot(s, alice);
    const errorOf = async (frame: unknown) => {
      const [m, ...rest] = await c.ask(frame);
      expect(rest).toEqual([]);
      expect(m!.type).toBe('error');
      return (m as { data: { error: string } }).data.error;
    };
    expect(await errorOf('not json {')).toBe(SOCKET_TEXTS.notJson);
    expect(await errorOf('[1,2]')).toBe(SOCKET_TEXTS.notJson);
    expect(await errorOf({ message: 'x'.repeat(1001) })).toBe(COPILOT_TEXTS.tooLong);
    expect(await errorOf({ message: '   \n ' })).toBe(COPILOT_TEXTS.empty);
    expect(await errorOf({})).toBe(COPILOT_TEXTS.empty);
    for (const max_iterations of [0, 6, 2.5, '3'])
      expect(await errorOf({ message: 'disks', max_iterations })).toBe(COPILOT_TEXTS.iterations);
    expect(await errorOf({ message: 'disks', mode: 'deep' })).toBe(COPILOT_TEXTS.mode);
    expect(await errorOf({ message: 'a\u0000b' })).toBe('message contains a NUL character');
    // 1000 characters exactly is allowed, and the socket still answers.
    const answer = responseOf(await c.ask({ message: `disk ${'x'.repeat(995)}` }));
    expect(answer.engine).toBe('embedded');
    await c.close();
  });

  it('refuses anonymous connections and bad bearers on the upgrade', async () => {
    const refusal = (protocols: string[]) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`${s.url.replace('http', 'ws')}${COPILOT_WS_PATH}`, protocols);
        ws.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
          ws.terminate();
        });
        ws.on('open', () => reject(new Error('an anonymous socket was accepted')));
        ws.on('error', () => undefined);
      });
    expect(await refusal([COPILOT_WS_PROTOCOL])).toBe(401);
    expect(await refusal([COPILOT_WS_PROTOCOL, 'bearer.not-a-token'])).toBe(401);
  });

  it('limits each user to 20 questions a minute by default and says when to retry', async () => {
    const bob = await s.user();
    const c = await openCopilot(s, bob);
    for (let i = 0; i < 20; i++)
      expect(responseOf(await c.ask({ message: 'hi' })).engine).toBe('embedded');
    const [refused] = await c.ask({ message: 'hi' });
    expect(refused!.type).toBe('error');
    expect((refused as { data: { error: string } }).data.error).toMatch(
      /^Too many questions: at most 20 every 60 s\. Try again in \d+ s$/,
    );
    // Another user is not held back by bob.
    const carol = await s.user();
    const other = await openCopilot(s, carol);
    expect(responseOf(await other.ask({ message: 'hi' })).engine).toBe('embedded');
    await Promise.all([c.close(), other.close()]);
  });

  it('logs sizes and timings, never the question or the answer', async () => {
    const dave = await s.user();
    const c = await openCopilot(s, dave);
    const question = 'How do disks zebracorn-7731 get their lifespan?';
    const answer = responseOf(await c.ask({ message: question }));
    await c.close();
    const all = logLines.join('');
    const line = logLines
      .map((l) => JSON.parse(l) as { msg: string; copilot?: Record<string, unknown> })
      .find((l) => l.msg === 'copilot answered' && l.copilot?.length === question.length);
    expect(line?.copilot).toMatchObject({
      engine: 'embedded',
      iterations: answer.iterations,
      citations: answer.citations.length,
      answer_length: answer.response.length,
    });
    expect(typeof line?.copilot?.ms).toBe('number');
    expect(all).not.toContain('zebracorn');
    expect(all).not.toContain(answer.response.slice(0, 40));
  });

  it('answers with the embedded engine when the model hook fails', async () => {
    const broken = await s.user({ username: `broken-${Date.now()}` });
    const c = await openCopilot(s, broken);
    const answer = responseOf(await c.ask({ message: 'How do I create a disk?' }));
    expect(answer.engine).toBe('embedded');
    expect(answer.citations.length).toBeGreaterThan(0);
    await c.close();
  });

  it('delivers an answer that was in flight to the same conversation when it reconnects', async () => {
    const slow = await s.user({ username: `slow-${Date.now()}` });
    const first = await openCopilot(s, slow, 'conv-1');
    first.send({ message: 'a question answered after the socket dropped' });
    await new Promise((r) => setTimeout(r, 200));
    await first.close();
    release!();
    await new Promise((r) => setTimeout(r, 100));
    // Another conversation of the same user gets nothing of it; the same one gets it.
    const other = await openCopilot(s, slow, 'conv-2');
    const again = await openCopilot(s, slow, 'conv-1');
    expect(responseOf(await again.next()).response).toBe('held answer');
    expect(other.unread()).toBe(0);
    await Promise.all([other.close(), again.close()]);
  });
});
