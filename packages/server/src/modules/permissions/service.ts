import { and, eq, like, or } from 'drizzle-orm';
import { parseUri, type Action, type PermissionWire } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { permissions, users } from '../../db/schema.js';
import { grantsOf, type Grant } from '../../auth/permissions.js';
import type { Principal } from '../../auth/principal.js';
import { invalid, notFound } from '../../http/errors.js';
import { userByUsername } from '../users/store.js';

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
  const userId = await userIdOf(db, username);
  await db.transaction(async (tx) => {
    for (const p of list) {
      await tx
        .insert(permissions)
        .values({ userId, uri: p.uri, action: p.action, grantedBy: granter.id })
        .onConflictDoUpdate({
          target: [permissions.userId, permissions.uri],
          set: { action: p.action },
        });
    }
  });
}

/** Takes back the named user's grant on `uri`. */
export async function revoke(db: Db, username: string, uri: string) {
  const userId = await userIdOf(db, username);
  await db.delete(permissions).where(and(eq(permissions.userId, userId), eq(permissions.uri, uri)));
}

/** Shares given on the URI (or below it). */
export async function sharesOn(db: Db, uri: string) {
  return db
    .select({ user: users.username, uri: permissions.uri, action: permissions.action })
    .from(permissions)
    .innerJoin(users, eq(users.id, permissions.userId))
    .where(
      or(eq(permissions.uri, uri), like(permissions.uri, `${uri.replace(/[%_\\]/g, '\\$&')}/%`)),
    );
}

/**
 * Shares a user gave (`apolo acl ls --shared`): every grant they wrote for someone else, of one
 * scheme (`storage`, `image`...) or of all.
 */
export async function sharesBy(db: Db, granterId: string, scheme?: string) {
  return db
    .select({ user: users.username, uri: permissions.uri, action: permissions.action })
    .from(permissions)
    .innerJoin(users, eq(users.id, permissions.userId))
    .where(
      and(
        eq(permissions.grantedBy, granterId),
        scheme ? like(permissions.uri, `${scheme.replace(/[%_\\]/g, '\\$&')}://%`) : undefined,
      ),
    )
    .orderBy(permissions.uri, users.username);
}
