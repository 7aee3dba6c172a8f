// What the browser downloads before the first screen, and the time to render the main layout
// for a signed-in user with a saved context (Debian's Chromium driven by e2e/support).
import { median, ms, notMeasured, row } from './report.mjs';
import { ADMIN_PASSWORD } from './server.mjs';
import { initialSize } from '../../packages/web/scripts/initial-size.mjs';

export function benchBundle() {
  const { js, css } = initialSize();
  row('initial console JS (gzip)', `${(js / 1024).toFixed(1)} KB`, '≤ 200 KB');
  row('initial console CSS (gzip)', `${(css / 1024).toFixed(1)} KB`);
}

export async function benchNavigation(server) {
  const what = 'navigation to main layout rendered (median of 5)';
  try {
    const { measureLayout } = await import('../../e2e/support/measure-layout.mjs');
    const times = await measureLayout(server.base, {
      email: 'admin@orrery.local',
      password: ADMIN_PASSWORD,
      token: server.token,
      org: 'bench',
      project: 'bench',
    });
    row(what, ms(median(times)), '≤ 800 ms');
  } catch (e) {
    notMeasured(what, e.message, '≤ 800 ms');
  }
}
