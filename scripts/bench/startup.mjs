// Start to ready: the first start creates the database (migrations, bootstrap); later starts
// open a persisted one, which is what an operator's restart costs.
import { spawn } from 'node:child_process';
import { median, ms, row } from './report.mjs';
import { ROOT } from '../lib.mjs';
import { randomPort, spawnServer, stop, waitOk } from './server.mjs';

/** The yardstick: a bare Fastify hello-world's start to its first answer, on the same machine. */
async function bareFastifyStart(port) {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['e2e/support/bare-fastify.mjs'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: 'ignore',
  });
  await waitOk(`http://127.0.0.1:${port}/`, 60000, child);
  const took = performance.now() - t0;
  await stop(child);
  return took;
}

/** Measures the starts and leaves the last server running for the next sections. */
export async function benchStartup(dataDir, env = {}) {
  const port = randomPort();
  const base = `http://127.0.0.1:${port}`;
  let t0 = performance.now();
  let server = spawnServer(dataDir, port, env);
  await waitOk(`${base}/readyz`, 120000, server);
  row('first start to ready (fresh data dir)', ms(performance.now() - t0));
  await stop(server);
  const starts = [];
  for (let i = 0; i < 3; i++) {
    t0 = performance.now();
    server = spawnServer(dataDir, port, env);
    await waitOk(`${base}/readyz`, 120000, server);
    starts.push(performance.now() - t0);
    if (i < 2) await stop(server);
  }
  row('start to ready (persisted data dir, median of 3)', ms(median(starts)), '≤ 1500 ms');
  const bare = [];
  for (let i = 0; i < 3; i++) bare.push(await bareFastifyStart(randomPort()));
  row('  bare Fastify hello-world, start to first answer (median of 3)', ms(median(bare)));
  return { child: server, base };
}
