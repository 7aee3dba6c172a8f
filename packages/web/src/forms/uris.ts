import { formatUri, type ProjectPlace } from '@orrery/contract';

export type { ProjectPlace };

type Kind = 'storage' | 'disk' | 'secret';

/**
 * Expands the short resource forms users type into full URIs: `storage:data` →
 * `storage://C/ORG/PROJECT/data`, `storage:/org/proj/data` → `storage://C/org/proj/data`. Full
 * URIs pass unchanged.
 */
export function expandUri(kind: Kind, value: string, place: ProjectPlace): string {
  const text = value.trim();
  if (text.startsWith(`${kind}://`)) return text;
  const rest = text.startsWith(`${kind}:`) ? text.slice(kind.length + 1) : text;
  const segments = rest.split('/').filter((s) => s.length > 0);
  return rest.startsWith('/')
    ? formatUri(kind, place.clusterName, ...segments)
    : formatUri(kind, place.clusterName, place.orgName, place.projectName, ...segments);
}

export const secretUriOf = (value: string, place: ProjectPlace) =>
  expandUri('secret', value, place);
