import type { ResourcePlace } from '@orrery/contract';
import { BatchError } from './errors.js';

export interface TaskVolume {
  /** Full: storage://C/O/P/path, disk://C/O/P/id, secret://C/O/P/key. */
  uri: string;
  dst: string;
  readOnly: boolean;
}
/** Where the resource lives (the contract's one shape for it). */
export type Place = ResourcePlace;

const SCHEMES = ['storage', 'disk', 'secret'];

/**
 * A volume as a task writes it, `storage:path:/mnt[:ro|:rw]`, `disk:NAME_OR_ID:/mnt[:ro]` or
 * `secret:KEY:/path`, with short URIs made full as the apolo CLI does: relative to the
 * project (`storage:dir`), or to the cluster when the path is absolute (`storage:/org/proj/dir`).
 */
export function parseVolume(text: string, place: Place): TaskVolume {
  const bad = (why: string) => new BatchError(`volume \`${text}\`: ${why}`, null);
  let rest = text;
  let mode: string | null = null;
  const m = /:(ro|rw)$/.exec(rest);
  if (m) {
    mode = m[1];
    rest = rest.slice(0, -3);
  }
  const cut = rest.lastIndexOf(':');
  const colon = rest.indexOf(':');
  if (cut <= colon) throw bad('write it as `storage:path:/mount/path` (`:ro` for read-only)');
  const src = rest.slice(0, cut);
  const dst = rest.slice(cut + 1);
  if (!dst.startsWith('/')) throw bad(`the mount path \`${dst}\` must be absolute`);
  const scheme = src.slice(0, colon);
  if (!SCHEMES.includes(scheme)) {
    throw bad(`only \`storage:\`, \`disk:\` and \`secret:\` volumes are supported`);
  }
  const uri = fullUri(scheme, src.slice(colon + 1), place);
  if (uri === null) throw bad(`\`${scheme}:\` needs a name`);
  if (scheme === 'secret' && mode === 'rw') throw bad('a secret is mounted read-only');
  return { uri, dst, readOnly: scheme === 'secret' || mode === 'ro' };
}

/** An env value `secret:KEY` (or `secret://C/O/P/KEY`) as the full URI of the secret. */
export function secretUri(text: string, place: Place): string {
  const uri = fullUri('secret', text.slice('secret:'.length), place);
  if (uri === null) throw new BatchError(`\`${text}\` needs the secret's key`, null);
  return uri;
}

function fullUri(scheme: string, path: string, place: Place): string | null {
  if (path.startsWith('//')) return `${scheme}:${path}`;
  const project = [place.cluster, place.org, place.project].filter(Boolean).join('/');
  if (scheme === 'storage') {
    if (path.startsWith('/')) return `storage://${place.cluster}${path.replace(/\/+$/, '')}`;
    const rel = path.replace(/^\.?\/*/, '').replace(/\/+$/, '');
    return rel ? `storage://${project}/${rel}` : `storage://${project}`;
  }
  const name = path.replace(/^\/+|\/+$/g, '');
  return name ? `${scheme}://${project}/${name}` : null;
}
