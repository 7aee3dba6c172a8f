// Two replicas on one PostgreSQL (scripts/postgres.mjs) and one data directory, as behind a load
// balancer (docs/operations.md): the signed-in config and jobs list through one replica, then
// through both at once with the same number of connections split between them; and how long a
// job killed through replica B takes to show cancelled on replica A's status socket (attach),
// which B's NOTIFY wakes. Every process shares this machine's cores, the database's included.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../lib.mjs';
import { startPostgres } from '../postgres.mjs';
import { median, ms, notMeasured, row } from './report.mjs';
import { randomPort, startServer } from './server.mjs';
import { benchMember, SIGNED_IN_ROUTES } from './signed-in.mjs';
import { jobBody, statusOf, until } from './jobs.mjs';

const require = createRequire(join(ROOT, 'packages/server/package.json'));
const autocannon = require('autocannon');
const { WebSocket } = require('ws');

const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const kills = Number(process.env.BENCH_REPLICA_KILLS ?? 5);
const CONNECTIONS = 10;
const ROUTES = SIGNED_IN_ROUTES.filter((r) => r.name === 'config' || r.name === 'jobs list');

async function load(url, headers, connections) {
  const r = await autocannon({ url, connections, duration: seconds, headers });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r;
}

/** req/s of one route through one replica, then through both (half the connections each). */
async function throughput(a, b, member) {
  for (const r of ROUTES) {
    const one = `${a.base}${r.path}`;
    await load(one, member.headers, CONNECTIONS); // warm-up
    const alone = await load(one, member.headers, CONNECTIONS);
    await load(`${b.base}${r.path}`, member.headers, CONNECTIONS); // warm-up of B
    const both = await Promise.all(
      [a, b].map((s) => load(`${s.base}${r.path}`, member.headers, CONNECTIONS / 2)),
    );
    const sum = both.reduce((n, x) => n + x.requests.average, 0);
    row(
      `${r.name} signed in, one replica (PostgreSQL)`,
      `${Math.round(alone.requests.average)} req/s, p99 ${alone.latency.p99} ms (${CONNECTIONS} connections)`,
    );
    row(
      `${r.name} signed in, two replicas (PostgreSQL)`,
      `${Math.round(sum)} req/s (${both.map((x) => Math.round(x.requests.average)).join(' + ')}), p99 ${Math.max(...both.map((x) => x.latency.p99))} ms`,
      `more than one replica's, cores permitting`,
    );
  }
}

/** Kill through B → the exit frame on A's attach socket, `kills` times. */
async function killLatencies(a, b) {
  const times = [];
  for (let i = 0; i < kills; i++) {
    const { id } = await a.api.post('/api/v1/jobs?from_preset', jobBody('sleep 600'));
    await until(a.api, id, (j) => statusOf(j) === 'running', { everyMs: 20 });
    const socket = new WebSocket(`${a.base.replace('http', 'ws')}/api/v1/jobs/${id}/attach`, {
      headers: a.api.headers,
    });
    const exit = new Promise((resolve, reject) => {
      socket.on('message', (d) => d[0] === 3 && resolve(performance.now()));
      socket.on('error', reject);
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const t0 = performance.now();
    await b.api.post(`/api/v1/jobs/${id}/kill`);
    times.push((await exit) - t0);
    socket.close();
    const seen = await a.api.get(`/api/v1/jobs/${id}`);
    if (statusOf(seen) !== 'cancelled') throw new Error(`job ${id} is ${statusOf(seen)} on A`);
  }
  return times;
}

export async function benchReplicas(work) {
  const what = 'two replicas on PostgreSQL';
  const pg = startPostgres();
  if (!pg) return notMeasured(what, 'PostgreSQL is not installed (apt-get install postgresql)');
  const servers = [];
  try {
    const dataDir = join(work, 'data-replicas');
    const portA = randomPort();
    let portB = randomPort();
    while (portB === portA) portB = randomPort();
    // The load balancer's address, the issuer of the tokens whichever replica is asked.
    const env = {
      DATABASE_URL: pg.url,
      ORRERY_RUNTIME: 'process',
      ORRERY_PUBLIC_URL: `http://127.0.0.1:${portA}`,
    };
    const a = await startServer(dataDir, env, portA);
    servers.push(a);
    const b = await startServer(dataDir, env, portB);
    servers.push(b);
    const member = await benchMember(a);
    await throughput(a, b, member);
    const times = await killLatencies(a, b);
    row(
      'job killed through replica B → cancelled on replica A’s attach socket',
      `median ${ms(median(times))}, max ${ms(Math.max(...times))} (${kills} jobs)`,
      'well under A’s 30 s fallback read',
    );
  } catch (e) {
    notMeasured(what, e.message);
  } finally {
    for (const s of servers.reverse()) await s.stop();
    pg.stop();
  }
}
