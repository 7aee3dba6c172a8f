import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  TOKEN_TEXTS,
  type MemberRole,
  type ProjectTokenWire,
  type TokenStatus,
} from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { projectMembers, users } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import { hashOfToken, mintProjectToken } from './format.js';
import { projectTokens } from './tables.js';

/**
 * A service account's user name: the token's name, `--` and random hex. A person's user name has
 * single hyphens only (USERNAME), so it can never be taken by, or mistaken for, a person's.
 */
const serviceUsername = (name: string) => `${name}--${randomBytes(4).toString('hex')}`;
/** A reserved domain (RFC 2606): nothing is ever delivered there. */
const serviceEmail = (username: string) => `${username}@service-account.invalid`;

const creator = alias(users, 'creator');
const account = alias(users, 'account');
const columns = {
  id: projectTokens.id,
  name: projectTokens.name,
  role: projectTokens.role,
  username: account.username,
  createdBy: creator.username,
  createdAt: projectTokens.createdAt,
  expiresAt: projectTokens.expiresAt,
  revokedAt: projectTokens.revokedAt,
};
type TokenRow = {
  [K in keyof typeof columns]: (typeof columns)[K]['_']['data'] | null;
};

function statusOf(r: TokenRow, now = Date.now()): TokenStatus {
  if (r.revokedAt) return 'revoked';
  return r.expiresAt!.getTime() <= now ? 'expired' : 'active';
}

export const tokenWire = (r: TokenRow): ProjectTokenWire => ({
  id: r.id!,
  name: r.name!,
  role: r.role as MemberRole,
  username: r.username!,
  created_by: r.createdBy,
  created_at: r.createdAt!.toISOString(),
  expires_at: r.expiresAt!.toISOString(),
  revoked_at: r.revokedAt?.toISOString() ?? null,
  status: statusOf(r),
});

const selectTokens = (db: Db) =>
  db
    .select(columns)
    .from(projectTokens)
    .innerJoin(account, eq(account.id, projectTokens.userId))
    .leftJoin(creator, eq(creator.id, projectTokens.createdBy));

/** The project's tokens, newest first, revoked ones included (their history stays readable). */
export async function listTokens(db: Db, projectId: string): Promise<ProjectTokenWire[]> {
  const rows = await selectTokens(db)
    .where(eq(projectTokens.projectId, projectId))
    .orderBy(desc(projectTokens.createdAt));
  return rows.map(tokenWire);
}

async function oneToken(db: Db, projectId: string, id: string) {
  const [row] = await selectTokens(db).where(
    and(eq(projectTokens.projectId, projectId), eq(projectTokens.id, id)),
  );
  if (!row) throw notFound(TOKEN_TEXTS.notFound);
  return tokenWire(row);
}

/**
 * Creates the service account (a user that is a member of the project with the token's role) and
 * its token, which is returned once and kept only as a hash.
 */
export async function createToken(
  db: Db,
  p: {
    projectId: string;
    name: string;
    role: MemberRole;
    expiresAt: Date;
    createdBy: string;
    issuer: string;
  },
): Promise<ProjectTokenWire & { token: string }> {
  const id = randomUUID();
  const username = serviceUsername(p.name);
  const token = mintProjectToken({
    username,
    tokenId: id,
    issuer: p.issuer,
    expiresAt: p.expiresAt,
  });
  await db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: projectTokens.id })
      .from(projectTokens)
      .where(
        and(
          eq(projectTokens.projectId, p.projectId),
          eq(projectTokens.name, p.name),
          isNull(projectTokens.revokedAt),
        ),
      );
    if (taken) throw conflict(TOKEN_TEXTS.nameTaken, 'name');
    const [user] = await tx
      .insert(users)
      .values({
        username,
        name: `${p.name} (project token)`,
        email: serviceEmail(username),
        emailVerified: true,
        termsAcceptedAt: new Date(),
      })
      .returning({ id: users.id });
    await tx
      .insert(projectMembers)
      .values({ projectId: p.projectId, userId: user.id, role: p.role });
    const inserted = await tx
      .insert(projectTokens)
      .values({
        id,
        projectId: p.projectId,
        userId: user.id,
        name: p.name,
        role: p.role,
        tokenHash: hashOfToken(token),
        createdBy: p.createdBy,
        expiresAt: p.expiresAt,
      })
      .onConflictDoNothing()
      .returning({ id: projectTokens.id });
    // Two creations of one name at once: the unique index lets one through.
    if (inserted.length === 0) throw conflict(TOKEN_TEXTS.nameTaken, 'name');
  });
  return { ...(await oneToken(db, p.projectId, id)), token };
}

/**
 * Revokes a token: the row says so (the per-request check refuses it from now on, on every
 * replica) and the service account leaves the project, so nothing it held stays granted. The
 * tokens it made (before tokens were kept from making tokens) go with it, and theirs in turn:
 * a token minted by a token never outlives it.
 */
export async function revokeToken(db: Db, projectId: string, id: string) {
  await db.transaction(async (tx) => {
    const now = new Date();
    let revoked = await tx
      .update(projectTokens)
      .set({ revokedAt: now })
      .where(
        and(
          eq(projectTokens.projectId, projectId),
          eq(projectTokens.id, id),
          isNull(projectTokens.revokedAt),
        ),
      )
      .returning({ userId: projectTokens.userId });
    while (revoked.length) {
      const userIds = revoked.map((r) => r.userId);
      await tx.delete(projectMembers).where(inArray(projectMembers.userId, userIds));
      revoked = await tx
        .update(projectTokens)
        .set({ revokedAt: now })
        .where(and(inArray(projectTokens.createdBy, userIds), isNull(projectTokens.revokedAt)))
        .returning({ userId: projectTokens.userId });
    }
  });
  return oneToken(db, projectId, id);
}

/** The live project token of a service account's user (there is one per user), or null. */
export async function liveTokenOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: projectTokens.id })
    .from(projectTokens)
    .where(
      and(
        eq(projectTokens.userId, userId),
        isNull(projectTokens.revokedAt),
        gt(projectTokens.expiresAt, new Date()),
      ),
    );
  return row?.id ?? null;
}

/** Whether a user is a project token's service account (revoked or not). */
export async function isServiceAccountUser(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: projectTokens.id })
    .from(projectTokens)
    .where(eq(projectTokens.userId, userId))
    .limit(1);
  return !!row;
}

/**
 * The user name of a live project token, read from the database at every request: no cache, so
 * a revoked or expired token is refused at once by every replica.
 */
export async function liveTokenUser(db: Db, token: string): Promise<string | null> {
  const [row] = await db
    .select({ username: users.username })
    .from(projectTokens)
    .innerJoin(users, eq(users.id, projectTokens.userId))
    .where(
      and(
        eq(projectTokens.tokenHash, hashOfToken(token)),
        isNull(projectTokens.revokedAt),
        gt(projectTokens.expiresAt, new Date()),
      ),
    );
  return row?.username ?? null;
}
