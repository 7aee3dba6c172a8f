// The assistant with a model: what Orrery itself adds to each answer when a model
// composes it. The model is a STAND-IN on loopback that answers every completion at once (no
// model runs here), so the figure is Orrery's share: keyword, judge and compose prompts, the
// retrievals over the docs, the citation check, plus the loopback HTTP calls themselves. Next to
// it the baseline: one bare loopback POST to the same stand-in, what each of those calls costs.
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { median, ms, pct, row } from './report.mjs';

const dist = '../../packages/server/dist/modules/assistant';
const ROUNDS = Number(process.env.BENCH_MODEL_ROUNDS ?? 10);

/** Keywords and judgements as JSON when JSON is asked for; else an answer citing [1] and [2]. */
function standIn() {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const json = JSON.parse(body || '{}');
      const content = json.response_format
        ? JSON.stringify({
            high_level_keywords: ['scheduling'],
            low_level_keywords: ['pending job', 'preset'],
            status: 'incomplete',
            next_entities_to_explore: ['credits'],
          })
        : 'A pending job waits for capacity [1]; its preset sets the price [2].';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

export async function benchAssistantModel() {
  const { loadKnowledge } = await import(`${dist}/knowledge/index.js`);
  const { QUESTIONS } = await import(`${dist}/knowledge/questions.fixture.js`);
  const { ModelAnswerer } = await import(`${dist}/model/answerer.js`);
  const { chatClient } = await import(`${dist}/model/client.js`);
  const server = await standIn();
  const url = `http://127.0.0.1:${server.address().port}`;
  try {
    const knowledge = loadKnowledge();
    const silent = { info() {}, warn() {} };
    const answerer = new ModelAnswerer({
      client: chatClient({ url, model: 'stand-in', label: 'bench' }),
      knowledge,
      tools: { facts: async () => [], propose: async () => null },
      embedded: { answer: async () => ({}) },
      redactFor: async () => (t) => t,
      log: silent,
    });
    const asker = { principal: {}, grants: [], context: {} };
    const questions = QUESTIONS.map(([q]) => q);
    for (const iterations of [1, 3]) {
      const times = [];
      for (let r = 0; r < ROUNDS; r++) {
        for (const message of questions) {
          const t = performance.now();
          const a = await answerer.answer({
            asker,
            message,
            history: [],
            mode: 'hybrid',
            maxIterations: iterations,
            onProgress: () => {},
          });
          times.push(performance.now() - t);
          if (a.engine !== 'model') throw new Error('the stand-in did not answer');
        }
      }
      // Keywords, a judgement between iterations, the composition.
      const calls = iterations + 1;
      row(
        `Model answer over a loopback stand-in, ${iterations} iteration(s) (${calls} calls at most): p50`,
        ms(median(times)),
      );
      row(
        `Model answer over a loopback stand-in, ${iterations} iteration(s): p99`,
        ms(pct(times, 99)),
      );
    }
    const bare = [];
    for (let i = 0; i < ROUNDS * questions.length; i++) {
      const t = performance.now();
      const r = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
      });
      await r.text();
      bare.push(performance.now() - t);
    }
    row('Baseline: one bare loopback POST to the same stand-in: p50', ms(median(bare)));
  } finally {
    server.close();
  }
}
