// The gzip size of what the first page load downloads: the entry chunk, its static imports
// (transitively) and their CSS, as recorded in Vite's build manifest. `npm run bench` uses it;
// run directly it prints each file.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export function initialSize(dist = new URL('../dist/', import.meta.url)) {
  const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  const js = new Set();
  const css = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (js.has(chunk.file)) return;
    js.add(chunk.file);
    (chunk.css ?? []).forEach((f) => css.add(f));
    (chunk.imports ?? []).forEach(visit);
  };
  visit(entry);
  const gz = (file) => gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length;
  const files = [...[...js].map((f) => ['js', f]), ...[...css].map((f) => ['css', f])].map(
    ([kind, file]) => ({ kind, file, bytes: gz(file) }),
  );
  const sum = (kind) => files.filter((f) => f.kind === kind).reduce((n, f) => n + f.bytes, 0);
  return { files, js: sum('js'), css: sum('css') };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files, js, css } = initialSize();
  for (const f of files)
    console.log(`${f.kind.padEnd(4)}${String(f.bytes).padStart(8)} B  ${f.file}`);
  console.log(
    `initial JS ${(js / 1024).toFixed(1)} KiB gzip, CSS ${(css / 1024).toFixed(1)} KiB gzip`,
  );
}
