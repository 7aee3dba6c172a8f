// Sustained load: the signed-in mix (config, jobs list, storage listing, secrets list) at a fixed
// rate, requests evenly paced (one every 1000/rate ms, whatever the previous ones are doing), for
// BENCH_SOAK_SECONDS. A line per minute: p50/p99 latency, errors and the server's RSS at the
// minute's end, so that a slow climb in latency or memory shows.
import { mb, ms, pct, row } from './report.mjs';
import { rssOf, sleep } from './server.mjs';
import { benchMember, SIGNED_IN_ROUTES } from './signed-in.mjs';

const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const rate = Number(process.env.BENCH_SOAK_RATE ?? 200);
const WINDOW_MS = Number(process.env.BENCH_SOAK_WINDOW_SECONDS ?? 60) * 1000;
const AIM = 'p99 < 100 ms, 0 errors, flat RSS';

export async function benchSoak(server) {
  const member = await benchMember(server);
  const every = 1000 / rate;
  const total = Math.round(seconds * rate);
  const windows = [];
  const windowAt = (due) => {
    const i = Math.floor(due / WINDOW_MS);
    // The previous window ends here: its RSS is read now.
    if (!windows[i]) {
      if (i > 0) windows[i - 1].rss = rssOf(server.pid);
      windows[i] = { latencies: [], errors: 0 };
    }
    return windows[i];
  };
  const rss0 = rssOf(server.pid);
  const requests = [];
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const due = i * every;
    const wait = t0 + due - performance.now();
    if (wait > 1) await sleep(wait);
    const w = windowAt(due);
    const route = SIGNED_IN_ROUTES[i % SIGNED_IN_ROUTES.length];
    // Latency from the request's due time, so a client or server that falls behind is counted.
    const request = fetch(`${server.base}${route.path}`, { headers: member.headers })
      .then(async (r) => {
        await r.arrayBuffer();
        if (!r.ok) w.errors += 1;
      })
      .catch(() => void (w.errors += 1))
      .finally(() => w.latencies.push(performance.now() - t0 - due));
    requests.push(request);
  }
  await Promise.all(requests);
  windows.at(-1).rss = rssOf(server.pid);
  windows.forEach((w, i) => {
    const span = `${(i * WINDOW_MS) / 1000}–${Math.min(seconds, ((i + 1) * WINDOW_MS) / 1000)} s`;
    row(
      `sustained ${rate}/s signed-in mix, ${span}`,
      `p50 ${ms(pct(w.latencies, 50))}, p99 ${ms(pct(w.latencies, 99))}, ` +
        `${w.errors} errors of ${w.latencies.length}, RSS ${mb(w.rss)}`,
      AIM,
    );
  });
  row('server RSS before / after the sustained load', `${mb(rss0)} / ${mb(rssOf(server.pid))}`);
}
