// The first paint of a bake's 1,000-task graph in the console (aim ≤ 1 s), next to the
// same page for a bake without tasks. The bakes are written through the flow API as the
// `apolo-flow` client writes them (project, bake with its graphs, attempt, one task per node), so
// the console reads them through the same calls as any bake.
import { median, ms, notMeasured, row } from './report.mjs';
import { ADMIN_PASSWORD } from './server.mjs';

const TASKS = Number(process.env.BENCH_GRAPH_TASKS ?? 1000);
const AIM = '≤ 1 s';
const FLOW = '/api/v1/flow';

/** `n` tasks in layers of 50, each needing two tasks of the layer above: a wide, deep DAG. */
export function layeredGraph(n, width = 50) {
  const id = (i) => `t${i}`;
  const graph = {};
  for (let i = 0; i < n; i++) {
    const above = i - width;
    graph[id(i)] =
      above < 0 ? [] : [id(above), id(Math.floor(above / width) * width + ((above + 7) % width))];
  }
  return { '': graph };
}

const now = () => new Date().toISOString().replace('Z', '+00:00');

/** A finished bake of `graphs` with every task succeeded, as the flow client records one. */
export async function recordBake(api, projectId, name, graphs) {
  const bake = await api.post(`${FLOW}/bakes`, {
    project_id: projectId,
    batch: 'bench',
    graphs,
    params: {},
    name,
    tags: [],
    meta: { git_info: null },
  });
  const attempt = await api.post(`${FLOW}/attempts`, {
    bake_id: bake.id,
    number: 1,
    executor_id: null,
    result: 'succeeded',
    configs_meta: { workspace: 'bench', flow_config_id: 'bench', action_config_ids: {} },
  });
  const ids = Object.keys(graphs[''] ?? {});
  // A few at a time: the point is the console's paint, not the server's insert rate.
  for (let i = 0; i < ids.length; i += 25)
    await Promise.all(
      ids.slice(i, i + 25).map((yaml_id) =>
        api.post(`${FLOW}/tasks`, {
          attempt_id: attempt.id,
          yaml_id,
          raw_id: '',
          outputs: {},
          state: {},
          statuses: [
            { created_at: now(), status: 'pending' },
            { created_at: now(), status: 'succeeded' },
          ],
        }),
      ),
    );
  return bake;
}

export async function benchFlowGraph(server) {
  // A big graph opens on its first rows and draws what is in view (BakeGraph.tsx): painted is
  // every drawn node showing its status.
  const what = `first paint of a ${TASKS.toLocaleString('en')}-task bake graph (median of 5)`;
  try {
    const { api } = server;
    const flow = await api.post(`${FLOW}/projects`, {
      name: `bench_graph_${Date.now()}`,
      project_name: 'bench',
      cluster: 'default',
      org_name: 'bench',
    });
    const big = await recordBake(api, flow.id, null, layeredGraph(TASKS));
    const empty = await recordBake(api, flow.id, null, { '': {} });
    const { measurePages, graphPainted } = await import('../../e2e/support/measure-graph.mjs');
    const at = (bake) =>
      `/flows/${flow.id}/${flow.name}/bakes/${bake.id}?org=bench&cluster=default&project=bench`;
    const { times, measures } = await measurePages(
      server.base,
      { email: 'admin@orrery.local', password: ADMIN_PASSWORD, token: server.token },
      [
        { name: 'big', url: at(big), ready: graphPainted(null, 'succeeded') },
        {
          name: 'empty',
          url: at(empty),
          ready: (page) => page.getByText('No tasks found').waitFor({ timeout: 60000 }),
        },
      ],
      5,
      'orrery:bake-graph-layout',
    );
    row(what, ms(median(times.big)), AIM);
    row('  of which the layout (layered, in the page)', ms(median(measures.big)));
    row('  the same page, bake without tasks (baseline)', ms(median(times.empty)));
  } catch (e) {
    notMeasured(what, e.message, AIM);
  }
}
