/**
 * Resource URIs of the permission engine: `scheme://path`, e.g. `org://acme`,
 * `project://default/acme/vision`, `storage://default/acme/vision/data/x.csv`.
 */
export const PROJECT_SCHEMES = [
  'project',
  'job',
  'storage',
  'disk',
  'secret',
  'image',
  'flow',
  'app',
  'blob',
] as const;
export const SCHEMES = ['org', 'cluster', ...PROJECT_SCHEMES] as const;
export type Scheme = (typeof SCHEMES)[number];

export interface ParsedUri {
  scheme: Scheme;
  segments: string[];
}

export function parseUri(uri: string): ParsedUri | null {
  const m = /^([a-z]+):\/\/(.*)$/.exec(uri);
  if (!m || !(SCHEMES as readonly string[]).includes(m[1])) return null;
  const segments = m[2].split('/').filter((s) => s.length > 0);
  if (segments.some((s) => s === '.' || s === '..')) return null;
  return { scheme: m[1] as Scheme, segments };
}

export const formatUri = (scheme: Scheme, ...segments: string[]) =>
  `${scheme}://${segments.join('/')}`;
export const orgUri = (org: string) => formatUri('org', org);
export const clusterUri = (cluster: string) => formatUri('cluster', cluster);
export const projectUri = (cluster: string, org: string, project: string) =>
  formatUri('project', cluster, org, project);
