// What `npm test` prints about its passes (scripts/test.mjs): after each, its time and its
// slowest files; at the end one table of them all, so that a slow or growing pass is seen at once.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * A pass's figures from vitest's JSON report (null when it wrote none: it crashed before the
 * end). A file's time runs from its start to its end, its setup and servers included.
 */
export function readReport(path, root) {
  let j;
  try {
    j = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
  const files = (j.testResults ?? []).map((f) => ({
    file: relative(root, f.name),
    ms: Math.max(0, (f.endTime ?? 0) - (f.startTime ?? 0)),
  }));
  return {
    files: files.length,
    tests: j.numTotalTests ?? 0,
    passed: j.numPassedTests ?? 0,
    failed: j.numFailedTests ?? 0,
    skipped: (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0),
    slowest: files.sort((a, b) => b.ms - a.ms),
  };
}

const seconds = (ms) => (ms / 1000).toFixed(1);

/** `name: 123.4 s` and its `n` slowest files. */
export function passLines(name, ms, report, n = 10) {
  const lines = [`${name}: ${seconds(ms)} s`];
  if (report?.slowest.length) {
    lines.push(`  slowest ${Math.min(n, report.slowest.length)} of ${report.files} files:`);
    for (const f of report.slowest.slice(0, n)) {
      lines.push(`  ${seconds(f.ms).padStart(8)} s  ${f.file}`);
    }
  }
  return lines;
}

/**
 * One row a pass: its name, files, tests, failed tests and seconds; `-` where none apply. Passes
 * that ran side by side overlap: the total is the time from the first pass's start to the last
 * one's end, not their sum.
 */
export function passTable(passes) {
  const rows = [
    ['pass', 'files', 'tests', 'failed', 'seconds'],
    ...passes.map((p) => [
      p.name,
      p.report ? String(p.report.files) : '-',
      p.report ? String(p.report.tests) : '-',
      p.report ? String(p.report.failed) : p.ok ? '-' : 'failed',
      seconds(p.ms),
    ]),
  ];
  const total = passes.length
    ? Math.max(...passes.map((p) => p.ended)) - Math.min(...passes.map((p) => p.started))
    : 0;
  rows.push(['total', '', '', '', seconds(total)]);
  const width = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r.map((c, i) => (i === 0 ? c.padEnd(width[i]) : c.padStart(width[i]))).join('  '),
  );
}
