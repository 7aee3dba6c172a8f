import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { openCopilot, responseOf } from '../../../test/copilot.js';
import { startOpenAiStandIn, type StandIn } from '../../../test/openai-stand-in.js';
import { MODEL_UNREACHABLE } from './index.js';

describe('the copilot socket with a model (OpenAI-compatible STAND-IN)', () => {
  let s: TestServer;
  let llm: StandIn;
  let alice: TestUser;
  beforeAll(async () => {
    llm = await startOpenAiStandIn();
    s = await startTestServer({ ORRERY_ASSISTANT_LLM_URL: llm.url }, { listen: true });
    alice = await s.user();
  });
  afterAll(async () => {
    await s?.stop();
    await llm?.close();
  });

  it('answers over the socket with the model, citing docs retrieved this turn', async () => {
    llm.script(
      JSON.stringify({ high_level_keywords: ['disks'], low_level_keywords: ['create disk'] }),
      '{"status": "complete"}',
      'Create a disk from the Disks page [1]. Also [99].',
    );
    const c = await openCopilot(s, alice);
    const got = await c.ask({ message: 'How do I create a disk?', max_iterations: 2 });
    const answer = responseOf(got);
    expect(answer.engine).toBe('model');
    expect(answer.citations).toHaveLength(1);
    expect(answer.response).toBe('Create a disk from the Disks page [1]. Also.');
    llm.script({ status: 503 });
    const fallback = responseOf(await c.ask({ message: 'How do I create a disk?' }));
    expect(fallback).toMatchObject({ engine: 'embedded', notice: MODEL_UNREACHABLE });
    await c.close();
  });
});
