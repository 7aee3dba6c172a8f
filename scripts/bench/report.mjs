// The one table `npm run bench` prints, and the statistics its rows use. Figures only: nothing
// here asserts, so a slow machine still gets a full table.

const rows = [];

/** Adds a row; `aim` is what the issue asks for, shown next to the figure for the reader. */
export const row = (what, value, aim = '') => rows.push({ what, value: String(value), aim });

/** A row for a figure that could not be taken, with the reason in place of the value. */
export const notMeasured = (what, reason, aim = '') =>
  row(what, `not measured: ${String(reason).split('\n')[0]}`, aim);

/** Nearest-rank percentile (p in 0..100): the value below which p % of the samples lie. */
export function pct(xs, p) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
export const median = (xs) => pct(xs, 50);

export const ms = (x) => `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`;
export const mbps = (bytes, millis) => bytes / 1e6 / (millis / 1000);
export const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;

/** Prints the table: measure / value / aim, columns padded to the widest cell. */
export function printTable(out = process.stdout) {
  const w = Math.max(7, ...rows.map((r) => r.what.length));
  const v = Math.max(5, ...rows.map((r) => r.value.length));
  out.write(`\n${'measure'.padEnd(w)}  ${'value'.padEnd(v)}  aim\n${'-'.repeat(w + v + 20)}\n`);
  for (const r of rows) out.write(`${r.what.padEnd(w)}  ${r.value.padEnd(v)}  ${r.aim}\n`);
}
