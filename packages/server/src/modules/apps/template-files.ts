import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { AppManifest } from '@orrery/contract';

/**
 * The templates that ship with Orrery, each in `src/modules/apps/templates/<name>/` with its
 * versions, runner and in-job programs (docs/apps.md). The sources, not dist/ (which holds no
 * such files): `../../../` is packages/server from both.
 */
export const BUILT_IN_TEMPLATES_DIR = fileURLToPath(
  new URL('../../../src/modules/apps/templates', import.meta.url),
);

/** A template's folder of in-job programs, never one of its versions. */
const PROGRAMS = 'runtime';

/** One version of a template as read from its folder. */
export interface TemplateFiles {
  manifest: AppManifest;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
  /** The markdown description (README.md). */
  description: string;
  /** The folder, for its assets. */
  dir: string;
  /** `builtin` or `operator`: where it came from. */
  source: 'builtin' | 'operator';
}

const readJson = (file: string) => {
  const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not a JSON object');
  return v as Record<string, unknown>;
};

/** A file a manifest names must stay inside its folder. */
export function fileInside(dir: string, name: string) {
  const file = resolve(dir, name);
  return file.startsWith(dir + sep) && existsSync(file) && statSync(file).isFile() ? file : null;
}

function readVersion(dir: string, source: TemplateFiles['source']): TemplateFiles {
  const raw = parseYaml(readFileSync(join(dir, 'manifest.yaml'), 'utf8')) as unknown;
  const parsed = AppManifest.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new Error(`${first.path.join('.') || 'manifest'}: ${first.message}`);
  }
  const manifest = parsed.data;
  if (dir.split(sep).slice(-2).join('/') !== `${manifest.name}/${manifest.version}`) {
    throw new Error(`must live in ${manifest.name}/${manifest.version}/`);
  }
  for (const named of [manifest.logo, ...manifest.assets.map((a) => a.file)]) {
    if (named && !/^https?:\/\//.test(named) && !fileInside(dir, named)) {
      throw new Error(`${named}: no such file beside the manifest`);
    }
  }
  const readme = join(dir, 'README.md');
  return {
    manifest,
    input: readJson(join(dir, 'input.schema.json')),
    output: readJson(join(dir, 'output.schema.json')),
    description: existsSync(readme) ? readFileSync(readme, 'utf8') : '',
    dir,
    source,
  };
}

const subdirs = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(dir, d.name));

/**
 * Every `<name>/<version>/manifest.yaml` under `root` (a `<name>/runtime/` is no version). A version that cannot be read is a warning
 * naming its file and is left out; the others load.
 */
export function readTemplateDir(
  root: string,
  source: TemplateFiles['source'],
  warn: (message: string) => void,
): TemplateFiles[] {
  if (!existsSync(root)) {
    warn(`App templates directory ${root} does not exist`);
    return [];
  }
  const found: TemplateFiles[] = [];
  for (const nameDir of subdirs(root)) {
    for (const versionDir of subdirs(nameDir).filter((d) => basename(d) !== PROGRAMS)) {
      try {
        found.push(readVersion(versionDir, source));
      } catch (e) {
        warn(
          `App template ${join(versionDir, 'manifest.yaml')} skipped: ${(e as Error).message.split('\n')[0]}`,
        );
      }
    }
  }
  return found;
}
