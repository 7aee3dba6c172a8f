// Requests per second of the signed-in routes (as an ordinary member) next to anonymous config
// and a bare Fastify hello-world on the same machine: the ratio says what Orrery's hooks (auth,
// permissions, database) cost per request, independent of the machine. On PGlite (the main
// server) and, when scripts/postgres.mjs can start one, on PostgreSQL.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../lib.mjs';
import { startPostgres } from '../postgres.mjs';
import { notMeasured, row } from './report.mjs';
import { startServer, stop, waitOk } from './server.mjs';
import { benchMember, SIGNED_IN_ROUTES } from './signed-in.mjs';

const require = createRequire(join(ROOT, 'package.json'));
const autocannon = require('autocannon');

const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const load = async (url, headers = {}) => {
  const r = await autocannon({ url, connections: 10, duration: seconds, headers });
  // A refused or failed request is fast: figures of errors would flatter the route.
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r;
};
const fmt = (r) => `${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms`;
/**
 * Figures before the streaming and back-pressure work, for the aim column (req/s): the aims set
 * then, and where there was none, this section run on commit 7af68b3 on the 2-core test machine.
 */
const BEFORE = {
  pglite: { config: 400, 'jobs list': 320, 'storage listing': 342, 'secrets list': 450 },
  postgres: { config: 1210, 'jobs list': 1242, 'storage listing': 1161, 'secrets list': 1333 },
};

async function bareFastify(port) {
  const bare = spawn(process.execPath, ['e2e/support/bare-fastify.mjs'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: 'ignore',
  });
  try {
    await waitOk(`http://127.0.0.1:${port}/`);
    await load(`http://127.0.0.1:${port}/`);
    return await load(`http://127.0.0.1:${port}/`);
  } finally {
    await stop(bare);
  }
}

/** Every signed-in route on one server, as rows `<route> signed in (<engine>)`. */
async function signedInRows(server, engine, hello) {
  const member = await benchMember(server);
  const aimOf = (name) => {
    const before = BEFORE[engine][name];
    const factor = engine === 'pglite' ? 10 : 5;
    return before ? `≥ ${(before * factor).toLocaleString('en')} req/s (${factor}× ${before})` : '';
  };
  for (const r of SIGNED_IN_ROUTES) {
    const url = `${server.base}${r.path}`;
    await load(url, member.headers); // warm-up
    const got = await load(url, member.headers);
    const ratio = (got.requests.average / hello.requests.average).toFixed(3);
    row(`GET ${r.name} signed in (${engine})`, `${fmt(got)}, ratio ${ratio}`, aimOf(r.name));
  }
}

export async function benchThroughput(server, work) {
  const url = `${server.base}/api/v1/config`;
  await load(url); // warm-up
  const anon = await load(url);
  const hello = await bareFastify(Number(new URL(server.base).port) + 1000);
  row('bare Fastify hello-world', fmt(hello));
  const ratio = (r) => (r.requests.average / hello.requests.average).toFixed(2);
  row('GET /api/v1/config anonymous', fmt(anon), `ratio ${ratio(anon)} (≥ 0.5)`);
  await signedInRows(server, 'pglite', hello);

  const pg = startPostgres();
  if (!pg) return notMeasured('signed-in routes on PostgreSQL', 'PostgreSQL is not installed');
  let pgServer;
  try {
    pgServer = await startServer(join(work, 'data-throughput-pg'), {
      DATABASE_URL: pg.url,
      ORRERY_RUNTIME: 'process',
    });
    await signedInRows(pgServer, 'postgres', hello);
  } catch (e) {
    notMeasured('signed-in routes on PostgreSQL', e.message);
  } finally {
    await pgServer?.stop();
    pg.stop();
  }
}
