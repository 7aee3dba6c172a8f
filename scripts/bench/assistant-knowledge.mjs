// The assistant's embedded knowledge: how long indexing Orrery's docs takes at start,
// and the server time of an embedded answer (retrieve + compose, no model, no network) over the
// fixture questions of the quality test, in each mode. Next to it the bare baseline: a plain
// MiniSearch search over the same sections, what any full-text search costs before the graph,
// the modes and the extractive answer.
import { performance } from 'node:perf_hooks';
import MiniSearch from 'minisearch';
import { median, ms, pct, row } from './report.mjs';

const dist = '../../packages/server/dist/modules/assistant/knowledge';
const BUILDS = Number(process.env.BENCH_KNOWLEDGE_BUILDS ?? 5);
const ROUNDS = Number(process.env.BENCH_KNOWLEDGE_ROUNDS ?? 20);

const timed = (fn) => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};

export async function benchAssistantKnowledge() {
  const { buildKnowledge } = await import(`${dist}/index.js`);
  const { loadDocSections } = await import(`${dist}/sections.js`);
  const { QUESTIONS, OFF_TOPIC } = await import(`${dist}/questions.fixture.js`);
  const { DOCS_DIR } = await import('../../packages/server/dist/http/docs.js');

  let kb;
  const builds = Array.from({ length: BUILDS }, () => timed(() => (kb = buildKnowledge({}))));
  const { sections, nodes, edges } = kb.stats;
  row(
    `Knowledge index build (${sections} sections, ${nodes} nodes, ${edges} edges), median of ${BUILDS}`,
    ms(median(builds)),
  );

  const queries = [...QUESTIONS.map(([q]) => q), ...OFF_TOPIC];
  for (const mode of ['hybrid', 'local', 'global', 'mix']) {
    const times = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const q of queries) {
        times.push(timed(() => kb.compose(q, kb.retrieve(q, { mode, maxIterations: 3 }))));
      }
    }
    row(
      `Embedded answer, ${mode}, 3 iterations: p50`,
      ms(median(times)),
      mode === 'hybrid' ? '≤ 20 ms' : '',
    );
    row(`Embedded answer, ${mode}, 3 iterations: p99`, ms(pct(times, 99)));
  }

  const docs = loadDocSections(DOCS_DIR);
  let bare;
  const bareBuilds = Array.from({ length: BUILDS }, () =>
    timed(() => {
      bare = new MiniSearch({ fields: ['heading', 'text'] });
      bare.addAll(docs);
    }),
  );
  row(
    `Baseline: plain MiniSearch index of the ${docs.length} docs sections, median of ${BUILDS}`,
    ms(median(bareBuilds)),
  );
  const times = [];
  for (let r = 0; r < ROUNDS; r++) for (const q of queries) times.push(timed(() => bare.search(q)));
  row('Baseline: plain MiniSearch search over the docs sections: p50', ms(median(times)));
  row('Baseline: plain MiniSearch search over the docs sections: p99', ms(pct(times, 99)));
}
