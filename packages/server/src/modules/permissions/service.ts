import { parseUri, type Action, type PermissionWire } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { grantsOf, type Grant } from '../../auth/permissions.js';
import type { Principal } from '../../auth/principal.js';
import { invalid, notFound } from '../../http/errors.js';
import { userByUsername } from '../users/store.js';
import { deletePermission, putPermissions, sharesBy, sharesOn } from './store.js';

export { sharesBy, sharesOn };

/** Grants written back as URIs, the way the Apolo CLI lists them. */
export function grantUris(grants: Grant[]): PermissionWire[] {
  return grants.map((g) => ({
    uri:
      g.scheme === '*'
        ? 'cluster://'
        : `${g.scheme === 'project-scoped' ? 'project' : g.scheme}://${g.path.join('/')}`,
    action: g.action,
  }));
}

export async function permissionsOf(db: Db, user: Principal, uriPrefix?: string) {
  const all = grantUris(await grantsOf(db, user));
  return uriPrefix ? all.filter((p) => p.uri.startsWith(uriPrefix)) : all;
}

export function assertUri(uri: string, path = 'uri') {
  if (!parseUri(uri)) throw invalid(path, `Invalid resource URI: ${uri}`);
}

/** The id of the user a share or a revocation names; 404 when there is no such user. */
async function userIdOf(db: Db, username: string) {
  const target = await userByUsername(db, username);
  if (!target) throw notFound('User not found');
  return target.id;
}

/** Grants `list` to the user named `username` (on behalf of `granter`, who manages each URI). */
export async function share(
  db: Db,
  granter: Principal,
  username: string,
  list: { uri: string; action: Action }[],
) {
  await putPermissions(db, await userIdOf(db, username), granter.id, list);
}

/** Takes back the named user's grant on `uri`. */
export async function revoke(db: Db, username: string, uri: string) {
  await deletePermission(db, await userIdOf(db, username), uri);
}
