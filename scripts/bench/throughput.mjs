// GET /api/v1/config next to a bare Fastify hello-world on the same machine: the ratio says what
// Orrery's hooks (auth, permissions, logging) cost per request, independent of the machine.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../lib.mjs';
import { row } from './report.mjs';
import { stop, waitOk } from './server.mjs';

const require = createRequire(join(ROOT, 'package.json'));
const autocannon = require('autocannon');

const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const load = (url, headers = {}) =>
  autocannon({ url, connections: 10, duration: seconds, headers });
const fmt = (r) => `${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms`;

export async function benchThroughput(server) {
  const url = `${server.base}/api/v1/config`;
  await load(url); // warm-up
  const anon = await load(url);
  const authed = await load(url, server.api.headers);
  const barePort = Number(new URL(server.base).port) + 1000;
  const bare = spawn(process.execPath, ['e2e/support/bare-fastify.mjs'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(barePort) },
    stdio: 'ignore',
  });
  try {
    await waitOk(`http://127.0.0.1:${barePort}/`);
    await load(`http://127.0.0.1:${barePort}/`);
    const hello = await load(`http://127.0.0.1:${barePort}/`);
    row('bare Fastify hello-world', fmt(hello));
    const ratio = (r) => (r.requests.average / hello.requests.average).toFixed(2);
    row('GET /api/v1/config anonymous', fmt(anon), `ratio ${ratio(anon)} (≥ 0.5)`);
    row('GET /api/v1/config signed in', fmt(authed), `ratio ${ratio(authed)}`);
  } finally {
    await stop(bare);
  }
}
