// Prints the gzip size of what the first page load downloads: the entry chunk, its static
// imports (transitively) and their CSS, as recorded in Vite's build manifest.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
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
let total = { js: 0, css: 0 };
for (const [kind, files] of [
  ['js', js],
  ['css', css],
]) {
  for (const file of files) {
    const size = gz(file);
    total[kind] += size;
    console.log(`${kind.padEnd(4)}${String(size).padStart(8)} B  ${file}`);
  }
}
console.log(
  `initial JS ${(total.js / 1024).toFixed(1)} KiB gzip, CSS ${(total.css / 1024).toFixed(1)} KiB gzip`,
);
