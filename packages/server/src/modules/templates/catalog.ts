import { LATEST_VERSION, type TemplateWire } from '@orrery/contract';
import { jobTemplate } from './job-template.js';

/** Built-in templates; app templates will join them. Each name may have several versions. */
const BUILT_IN: readonly TemplateWire[] = [jobTemplate];

/** `1.10.0` after `1.9.0`: numeric parts compare as numbers. */
const compareVersions = (a: string, b: string) =>
  a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });

/** Versions of one template, newest first. */
export const versionsOf = (name: string) =>
  BUILT_IN.filter((t) => t.name === name).sort((a, b) => compareVersions(b.version, a.version));

/** The newest version of every template, by name. */
export const latestTemplates = () =>
  [...new Set(BUILT_IN.map((t) => t.name))].sort().map((name) => versionsOf(name)[0]);

/** One version, or the newest for `latest`; undefined when there is none. */
export const findTemplate = (name: string, version: string) => {
  const versions = versionsOf(name);
  return version === LATEST_VERSION ? versions[0] : versions.find((t) => t.version === version);
};

export const summaryOf = ({ name, title, version, short_description, tags }: TemplateWire) => ({
  name,
  title,
  version,
  short_description,
  tags,
});
