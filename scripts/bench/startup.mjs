// Start to ready: the first start creates the database (migrations, bootstrap); later starts
// open a persisted one, which is what an operator's restart costs.
import { median, ms, row } from './report.mjs';
import { randomPort, spawnServer, stop, waitOk } from './server.mjs';

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
  return { child: server, base };
}
