import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { emailTokens } from '../../db/schema.js';

export type EmailTokenKind = 'verify' | 'reset';

export const TOKEN_TTL_MS: Record<EmailTokenKind, number> = {
  verify: 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
};

/** Only the hash is stored: a database dump does not hand out working links. */
const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A random 32-byte token for a mailed link; returns the token to put in the link. */
export async function issueEmailToken(db: Db, userId: string, kind: EmailTokenKind) {
  const token = randomBytes(32).toString('base64url');
  await insertOneTimeToken(db, {
    tokenHash: hashOf(token),
    userId,
    kind,
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS[kind]),
  });
  return token;
}

/**
 * Records a one-time token by its hash, under a kind of its own: mailed links here, and other
 * modules' one-time values hashed their own way (the jobs' ingress tickets).
 */
export async function insertOneTimeToken(db: Db, values: typeof emailTokens.$inferInsert) {
  await db.insert(emailTokens).values(values);
}

/** Drops the expired tokens of a kind: of no use to anyone once past their time. */
export async function deleteExpiredTokens(db: Db, kind: string) {
  await db
    .delete(emailTokens)
    .where(and(eq(emailTokens.kind, kind), lt(emailTokens.expiresAt, new Date())));
}

const live = (tokenHash: string, kind: string) =>
  and(
    eq(emailTokens.tokenHash, tokenHash),
    eq(emailTokens.kind, kind),
    gt(emailTokens.expiresAt, new Date()),
  );

/** The user of an unexpired token, used or not (verification links may be followed twice). */
export async function userOfToken(db: Db, token: string, kind: EmailTokenKind) {
  if (!token) return null;
  const [row] = await db
    .select({ userId: emailTokens.userId, usedAt: emailTokens.usedAt })
    .from(emailTokens)
    .where(live(hashOf(token), kind));
  return row ?? null;
}

/**
 * Marks an unexpired, unused token used and returns its user, in one statement, so two
 * concurrent uses of the same link cannot both succeed.
 */
export async function consumeEmailToken(db: Db, token: string, kind: EmailTokenKind) {
  if (!token) return null;
  return consumeOneTimeToken(db, hashOf(token), kind);
}

/** `consumeEmailToken` for a token hashed by its module: the user, once, or null. */
export async function consumeOneTimeToken(db: Db, tokenHash: string, kind: string) {
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(and(live(tokenHash, kind), isNull(emailTokens.usedAt)))
    .returning({ userId: emailTokens.userId });
  return row?.userId ?? null;
}

/** After a password change, older reset links of the user stop working too. */
export async function retireTokens(db: Db, userId: string, kind: EmailTokenKind) {
  await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(
      and(eq(emailTokens.userId, userId), eq(emailTokens.kind, kind), isNull(emailTokens.usedAt)),
    );
}

/** When the links of a kind issued to a user since `since` were made, oldest first. */
export async function tokensIssuedSince(db: Db, userId: string, kind: EmailTokenKind, since: Date) {
  const rows = await db
    .select({ createdAt: emailTokens.createdAt })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.userId, userId),
        eq(emailTokens.kind, kind),
        gt(emailTokens.createdAt, since),
      ),
    )
    .orderBy(asc(emailTokens.createdAt));
  return rows.map((r) => r.createdAt);
}
