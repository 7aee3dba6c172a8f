import {
  EASY_DEPLOY_TAG,
  LATEST_VERSION,
  type AppTemplateSummaryWire,
  type AppTemplateWire,
} from '@orrery/contract';
import type { AppRunner, AppRuntime } from './runner.js';
import { deployRunnerFor } from './templates/orrery-deploy/runner.js';
import { BUILT_IN_TEMPLATES_DIR, readTemplateDir, type TemplateFiles } from './template-files.js';

/** `1.10.0` after `1.9.0`: numeric parts compare as numbers. */
export const compareVersions = (a: string, b: string) =>
  a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** Where template assets are served (shipped data, public like the console's own files). */
export const ASSETS_PATH = '/apis/apps/v1/template-assets';

export const assetUrl = (t: TemplateFiles, file: string) =>
  /^https?:\/\//.test(file)
    ? file
    : `${ASSETS_PATH}/${encodeURIComponent(t.manifest.name)}/${encodeURIComponent(t.manifest.version)}/${file.split('/').map(encodeURIComponent).join('/')}`;

/**
 * The catalogue: built-in templates plus the operator's directory, each version with its runner
 * (a built-in one named by the manifest, or the generic deploy runner of a `deploy` section).
 */
export class Catalogue {
  private readonly byName = new Map<string, TemplateFiles[]>();

  constructor(
    templates: TemplateFiles[],
    private readonly runners: Map<string, AppRunner>,
    private readonly runtime: AppRuntime,
    warn: (message: string) => void,
    /** Why the runtime runs no one's job (driver.ts `refusal`): then no template is available. */
    private readonly refusal?: string,
    /** What the runtime gives no job (driver.ts `jobRefusals`): templates that need it are not. */
    private readonly jobRefusals: Partial<Record<'volumes' | 'http', string>> = {},
  ) {
    for (const t of templates) {
      const { name, version } = t.manifest;
      if (t.manifest.runner && !runners.has(t.manifest.runner)) {
        warn(`App template ${name} ${version} skipped: no runner named ${t.manifest.runner}`);
        continue;
      }
      const versions = this.byName.get(name) ?? [];
      if (versions.some((v) => v.manifest.version === version)) {
        warn(`App template ${name} ${version} skipped: ${t.dir} repeats a version already loaded`);
        continue;
      }
      versions.push(t);
      versions.sort((a, b) => compareVersions(b.manifest.version, a.manifest.version));
      this.byName.set(name, versions);
    }
  }

  /** Built-in templates, then the operator's; warnings name each file left out. */
  static load(opts: {
    runners: AppRunner[];
    runtime: AppRuntime;
    refusal?: string;
    jobRefusals?: Partial<Record<'volumes' | 'http', string>>;
    operatorDir?: string;
    builtInDir?: string;
    warn: (message: string) => void;
  }) {
    const files = [
      ...readTemplateDir(opts.builtInDir ?? BUILT_IN_TEMPLATES_DIR, 'builtin', opts.warn),
      ...(opts.operatorDir ? readTemplateDir(opts.operatorDir, 'operator', opts.warn) : []),
    ];
    const runners = new Map(opts.runners.map((r) => [r.template, r]));
    return new Catalogue(files, runners, opts.runtime, opts.warn, opts.refusal, opts.jobRefusals);
  }

  /** Versions of one template, newest first. */
  versionsOf(name: string) {
    return this.byName.get(name) ?? [];
  }

  /** The newest version of every template, by name. */
  latest() {
    return [...this.byName.keys()].sort().map((n) => this.versionsOf(n)[0]!);
  }

  /** One version, or the newest for `latest`. */
  find(name: string, version: string) {
    const versions = this.versionsOf(name);
    return version === LATEST_VERSION
      ? versions[0]
      : versions.find((t) => t.manifest.version === version);
  }

  runnerOf(t: TemplateFiles): AppRunner {
    return t.manifest.deploy ? deployRunnerFor(t.manifest) : this.runners.get(t.manifest.runner!)!;
  }

  /** Null when this installation can run the template, else why not. */
  unavailable(t: TemplateFiles): string | null {
    if (this.refusal) return this.refusal;
    const runner = this.runnerOf(t);
    const runtimes = t.manifest.runtimes.filter((r) => runner.runtimes.includes(r));
    if (!runtimes.includes(this.runtime)) {
      return `${t.manifest.title} needs the ${runtimes.join(' or ')} runtime; this installation runs jobs on ${this.runtime}`;
    }
    const refused = runner.needs?.map((n) => this.jobRefusals[n]).find(Boolean);
    if (refused) return `${t.manifest.title} cannot run here: ${lowerFirst(refused)}`;
    return runner.unavailable?.(this.runtime) ?? null;
  }

  /**
   * The newest templates this runtime runs whose programs the host lacks (Administration > Host):
   * the runtime's refusal and templates made for other runtimes are not the host's to fix.
   */
  missingPrograms(): { title: string; reason: string }[] {
    return this.latest().flatMap((t) => {
      const runner = this.runnerOf(t);
      if (!t.manifest.runtimes.some((r) => r === this.runtime && runner.runtimes.includes(r)))
        return [];
      const reason = runner.unavailable?.(this.runtime);
      return reason ? [{ title: t.manifest.title, reason }] : [];
    });
  }

  /** Every tag of the newest versions, "Easy Deploy" first, then by name. */
  tags() {
    const all = new Set(this.latest().flatMap((t) => t.manifest.tags));
    return [...all].sort((a, b) =>
      a === EASY_DEPLOY_TAG ? -1 : b === EASY_DEPLOY_TAG ? 1 : a.localeCompare(b),
    );
  }

  summary(t: TemplateFiles): AppTemplateSummaryWire {
    const m = t.manifest;
    const reason = this.unavailable(t);
    return {
      name: m.name,
      title: m.title,
      version: m.version,
      short_description: m.short_description,
      tags: m.tags,
      logo: m.logo ? assetUrl(t, m.logo) : null,
      pub_date: m.pub_date,
      available: reason === null,
      unavailable_reason: reason,
    };
  }

  full(t: TemplateFiles): AppTemplateWire {
    const m = t.manifest;
    return {
      ...this.summary(t),
      input: t.input,
      output: t.output,
      description: t.description,
      assets: m.assets.map((a) => ({ type: a.type, url: a.url ?? assetUrl(t, a.file!) })),
      external_urls: m.external_urls,
      runtimes: m.runtimes,
      is_latest: this.versionsOf(m.name)[0] === t,
    };
  }
}
