import { and, eq, like, or } from 'drizzle-orm';
import type { Action } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { permissions, users } from '../../db/schema.js';

/** Grants each of `list` to a user, or changes the action of the grant they have on its URI. */
export async function putPermissions(
  db: Db,
  userId: string,
  grantedBy: string,
  list: { uri: string; action: Action }[],
) {
  await db.transaction(async (tx) => {
    for (const p of list) {
      await tx
        .insert(permissions)
        .values({ userId, uri: p.uri, action: p.action, grantedBy })
        .onConflictDoUpdate({
          target: [permissions.userId, permissions.uri],
          set: { action: p.action },
        });
    }
  });
}

export async function deletePermission(db: Db, userId: string, uri: string) {
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
