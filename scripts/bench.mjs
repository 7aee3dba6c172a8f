// `npm run bench`: prints start-to-ready time, /api/v1/config throughput next to a bare Fastify,
// the console's initial JS/CSS gzip bytes and the time to render the main layout. Figures only.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, ensureBuilt, ensureDependencies, log } from './lib.mjs';
import { initialSize } from '../packages/web/scripts/initial-size.mjs';

ensureDependencies();
ensureBuilt();
const require = createRequire(join(ROOT, 'package.json'));
const autocannon = require('autocannon');

const rows = [];
const row = (what, value, aim = '') => rows.push({ what, value, aim });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function waitOk(url, timeoutMs = 60000) {
  const t0 = Date.now();
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    if (Date.now() - t0 > timeoutMs) throw new Error(`${url} not ready`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function spawnServer(dataDir, port) {
  return spawn(process.execPath, ['packages/server/bin/orrery.js', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      ORRERY_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ORRERY_ADMIN_PASSWORD: 'bench-password-1',
    },
    stdio: 'ignore',
  });
}
const stop = (child) =>
  new Promise((r) =>
    child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM')),
  );

const dataDir = mkdtempSync(join(tmpdir(), 'orrery-bench-'));
const port = 18000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;

// 1. Start to ready: the first start creates the database; later starts open a persisted one.
log('Start to ready');
let t0 = performance.now();
let server = spawnServer(dataDir, port);
await waitOk(`${base}/readyz`);
row('first start to ready (fresh data dir)', `${Math.round(performance.now() - t0)} ms`);
await stop(server);
const starts = [];
for (let i = 0; i < 3; i++) {
  t0 = performance.now();
  server = spawnServer(dataDir, port);
  await waitOk(`${base}/readyz`);
  starts.push(performance.now() - t0);
  if (i < 2) await stop(server);
}
row(
  'start to ready (persisted data dir, median of 3)',
  `${Math.round(median(starts))} ms`,
  '≤ 1500 ms',
);

// 2. GET /api/v1/config next to a bare Fastify hello-world.
log('Throughput');
const token = execFileSync(
  process.execPath,
  ['packages/server/bin/orrery.js', 'token', 'create', '--email', 'admin@orrery.local'],
  {
    cwd: ROOT,
    env: { ...process.env, ORRERY_DATA_DIR: dataDir },
  },
)
  .toString()
  .trim();
const headers = { authorization: `Bearer ${token}` };
await fetch(`${base}/api/v1/orgs`, {
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'bench' }),
});
await fetch(`${base}/api/v1/projects`, {
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'bench', org_name: 'bench', cluster_name: 'default' }),
});
const load = (url, h = {}) => autocannon({ url, connections: 10, duration: 5, headers: h });
await load(`${base}/api/v1/config`); // warm-up
const anon = await load(`${base}/api/v1/config`);
const authed = await load(`${base}/api/v1/config`, headers);
const barePort = port + 1000;
const bare = spawn(process.execPath, ['e2e/support/bare-fastify.mjs'], {
  cwd: ROOT,
  env: { ...process.env, PORT: String(barePort) },
  stdio: 'ignore',
});
await waitOk(`http://127.0.0.1:${barePort}/`);
await load(`http://127.0.0.1:${barePort}/`);
const hello = await load(`http://127.0.0.1:${barePort}/`);
await stop(bare);
const fmt = (r) => `${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms`;
row('bare Fastify hello-world', fmt(hello));
row(
  'GET /api/v1/config anonymous',
  fmt(anon),
  `ratio ${(anon.requests.average / hello.requests.average).toFixed(2)} (≥ 0.5)`,
);
row(
  'GET /api/v1/config signed in',
  fmt(authed),
  `ratio ${(authed.requests.average / hello.requests.average).toFixed(2)}`,
);

// 3. What the browser downloads before the first screen.
log('Console bundle');
const { js, css } = initialSize();
row('initial console JS (gzip)', `${(js / 1024).toFixed(1)} KB`, '≤ 200 KB');
row('initial console CSS (gzip)', `${(css / 1024).toFixed(1)} KB`);

// 4. Main layout rendered, for a signed-in user with a saved context.
log('Navigation');
try {
  const { measureLayout } = await import('../e2e/support/measure-layout.mjs');
  const times = await measureLayout(base, {
    email: 'admin@orrery.local',
    password: 'bench-password-1',
    token,
    org: 'bench',
    project: 'bench',
  });
  row(
    'navigation to main layout rendered (median of 5)',
    `${Math.round(median(times))} ms`,
    '≤ 800 ms',
  );
} catch (e) {
  row('navigation to main layout rendered', `not measured: ${e.message.split('\n')[0]}`);
}
await stop(server);
rmSync(dataDir, { recursive: true, force: true });

const w = Math.max(...rows.map((r) => r.what.length));
const v = Math.max(...rows.map((r) => r.value.length));
process.stdout.write(
  `\n${'measure'.padEnd(w)}  ${'value'.padEnd(v)}  aim\n${'-'.repeat(w + v + 20)}\n`,
);
for (const r of rows) process.stdout.write(`${r.what.padEnd(w)}  ${r.value.padEnd(v)}  ${r.aim}\n`);
