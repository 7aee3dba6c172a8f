import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Under jsdom `import.meta.url` is not a file URL; the directory name is.
const SRC = join(import.meta.dirname, '..');
const MANTINE_STYLES = join(SRC, '../../../node_modules/@mantine/core/styles');
const MANTINE_CHARTS = join(SRC, '../../../node_modules/@mantine/charts/esm');

function sources(dir: string, pattern = /\.tsx?$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path, pattern);
    return pattern.test(name) && !/\.test\./.test(name) ? [path] : [];
  });
}

/**
 * The core components Mantine's charts render inside (a legend's colour swatch, a tooltip): a
 * file that uses a chart needs their sheets too, or the legend shows no colours.
 */
function chartParts(): string[] {
  const names = new Set<string>();
  for (const file of sources(MANTINE_CHARTS, /\.mjs$/))
    for (const m of readFileSync(file, 'utf8').matchAll(
      /import \{([^}]+)\} from "@mantine\/core"/g,
    ))
      for (const name of m[1].split(',').map((n) => n.trim())) names.add(name);
  return [...names];
}

/**
 * The console imports Mantine's stylesheets one component at a time (app/styles.ts) to keep the
 * first download small; a component used without its sheet renders unstyled. This catches it.
 */
describe('Mantine stylesheets', () => {
  it('imports the sheet of every Mantine component the console uses', () => {
    const shared = readFileSync(join(SRC, 'app/styles.ts'), 'utf8');
    // An area may load sheets only it uses with its own chunk, from `features/<area>/styles.ts`.
    const areaSheets = (file: string) => {
      const area = /[\\/]features[\\/]([^\\/]+)[\\/]/.exec(file.slice(SRC.length))?.[1];
      const path = area && join(SRC, 'features', area, 'styles.ts');
      return path && existsSync(path) ? readFileSync(path, 'utf8') : '';
    };
    const missing = new Set<string>();
    const inCharts = chartParts();
    for (const file of sources(SRC)) {
      const styles = shared + areaSheets(file);
      const text = readFileSync(file, 'utf8');
      const used = [...text.matchAll(/import \{([^}]+)\} from '@mantine\/core'/g)].flatMap((m) =>
        m[1].split(','),
      );
      if (text.includes("from '@mantine/charts'")) used.push(...inCharts);
      for (const name of used.map((n) => n.replace(/\btype\b/, '').trim())) {
        if (
          /^[A-Z]/.test(name) &&
          existsSync(join(MANTINE_STYLES, `${name}.css`)) &&
          !styles.includes(`styles/${name}.css`)
        )
          missing.add(name);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
