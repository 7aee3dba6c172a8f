// Used by `npm run bench`: time from navigation to a bake's task graph painted in the console.
/* global document, requestAnimationFrame -- these run in the page */
import { openSignedIn } from './measure-layout.mjs';

/**
 * For each of `pages` ({ name, url, ready }), `runs` navigations timed until `ready(page)`
 * resolves; the pages alternate so that a warming machine favours none. Returns times by name,
 * and the User Timing measures named `measure` (the console's own split) by name.
 */
export async function measurePages(base, creds, pages, runs = 5, measure = null) {
  const { browser, page } = await openSignedIn(base, creds, {
    viewport: { width: 1400, height: 900 },
  });
  try {
    const times = Object.fromEntries(pages.map((p) => [p.name, []]));
    const measures = Object.fromEntries(pages.map((p) => [p.name, []]));
    for (let i = 0; i <= runs; i++) {
      for (const p of pages) {
        const t0 = Date.now();
        await page.goto(`${base}${p.url}`);
        await p.ready(page);
        // The first round loads the lazy chunks into the cache: a warm-up, not a sample.
        if (i === 0) continue;
        times[p.name].push(Date.now() - t0);
        if (measure)
          measures[p.name].push(
            ...(await page.evaluate(
              (m) => performance.getEntriesByName(m).map((e) => e.duration),
              measure,
            )),
          );
      }
    }
    return { times, measures };
  } finally {
    await browser.close();
  }
}

/**
 * The graph is painted when its `n` task nodes show their status and React Flow has made them
 * visible (it hides a node until it has measured it), plus the frame that paints them. `n` null:
 * a big graph draws only the nodes in view, so every node drawn (at least one) counts.
 */
export const graphPainted = (n, status) => (page) =>
  page.waitForFunction(
    ([count, s]) => {
      const nodes = document.querySelectorAll(`.react-flow__node [data-status="${s}"]`);
      if (count === null ? nodes.length === 0 : nodes.length !== count) return false;
      if (count === null && document.querySelectorAll('.react-flow__node').length !== nodes.length)
        return false;
      // The inline style React Flow sets: reading it forces no style recalculation per frame.
      const wrappers = document.querySelectorAll('.react-flow__node');
      for (const w of wrappers) if (w.style.visibility === 'hidden') return false;
      return new Promise((r) => requestAnimationFrame(() => r(true)));
    },
    [n, status],
    { polling: 'raf', timeout: 60000 },
  );
