import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { ProfileUpdate } from '@orrery/contract';
import { conflict, notFound } from '../../http/errors.js';
import type { Db } from '../../db/client.js';
import { uniqueViolation } from '../../db/errors.js';
import type { Mailer } from '../../mail/mailer.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import {
  insertUser,
  updateUser,
  userByEmail,
  userById,
  userByUsername,
  type UserRow,
} from '../users/store.js';
import { isServiceAccountUser } from '../tokens/store.js';
import {
  consumeEmailToken,
  issueEmailToken,
  retireTokens,
  tokensIssuedSince,
  userOfToken,
} from './store.js';
import { resetMail, verificationMail } from './mails.js';
import {
  MESSAGES,
  normalizeEmail,
  passwordError,
  signUpErrors,
  type FieldErrors,
  type SignUpInput,
} from './rules.js';

export interface AccountDeps {
  db: Db;
  mailer: Mailer;
  /** Base of the links in mails: `${publicUrl}/oidc/verify?token=...`. */
  publicUrl: string;
  log: FastifyBaseLogger;
}

/**
 * Checking a password for an unknown address costs the same scrypt as for a known one, so the
 * answer time does not tell which addresses have accounts: against this hash, made on the first
 * sign-in with an unknown address. One per server: its sign-in routes hold it.
 */
export function dummyHash(): () => Promise<string> {
  let hash: Promise<string> | undefined;
  return () => (hash ??= hashPassword('not the password of anyone'));
}

/**
 * A project token's service account signs in with its token alone: never with a password, and
 * it is never mailed a reset link, whatever address its row holds (docs/tokens.md).
 */
const tokenOnly = (db: Db, user: UserRow | null) =>
  user ? isServiceAccountUser(db, user.id) : Promise.resolve(false);

/** The user with this e-mail and password, or null. */
export async function authenticate(
  db: Db,
  email: string,
  password: string,
  dummy: () => Promise<string>,
) {
  const user = email ? await userByEmail(db, normalizeEmail(email)) : null;
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummy()));
  return user && ok && !(await tokenOnly(db, user)) ? user : null;
}

/** Unique-index violations of a concurrent sign-up, mapped onto the field they concern. */
function takenField(e: unknown): FieldErrors | null {
  const violated = uniqueViolation(e);
  if (!violated) return null;
  return violated.constraint?.includes('email')
    ? { email: MESSAGES.emailTaken }
    : { username: MESSAGES.usernameTaken };
}

/**
 * Creates an account with an unverified e-mail and mails the verification link. A mail that
 * cannot be sent does not undo the account: the user is signed in and can ask again later.
 * `emailProven`: the caller holds a mailed proof for this address (an invitation), so the
 * account starts verified and no mail is sent.
 */
export async function signUp(
  deps: AccountDeps,
  input: SignUpInput,
  title: string,
  emailProven: (email: string) => Promise<boolean> = async () => false,
): Promise<{ user: UserRow } | { errors: FieldErrors }> {
  const values = { ...input, name: input.name.trim(), email: normalizeEmail(input.email) };
  const errors = signUpErrors(values);
  if (!errors.username && (await userByUsername(deps.db, values.username))) {
    errors.username = MESSAGES.usernameTaken;
  }
  if (!errors.email && (await userByEmail(deps.db, values.email))) {
    errors.email = MESSAGES.emailTaken;
  }
  if (Object.keys(errors).length) return { errors };
  const verified = await emailProven(values.email);
  let user: UserRow;
  try {
    user = await insertUser(deps.db, {
      username: values.username,
      name: values.name,
      email: values.email,
      emailVerified: verified,
      passwordHash: await hashPassword(values.password),
    });
  } catch (e) {
    const mapped = takenField(e);
    if (mapped) return { errors: mapped };
    throw e;
  }
  if (verified) return { user };
  await sendVerification(deps, user, title).catch((err: Error) =>
    deps.log.error({ err: { message: err.message }, userId: user.id }, 'verification mail failed'),
  );
  return { user };
}

export async function sendVerification(deps: AccountDeps, user: UserRow, title: string) {
  const token = await issueEmailToken(deps.db, user.id, 'verify');
  const url = `${deps.publicUrl}/oidc/verify?token=${token}`;
  await deps.mailer.send(verificationMail({ to: user.email, name: user.name, title, url }));
}

/**
 * At most three verification mails per user in ten minutes, the sign-up mail included: a lost
 * mail can be asked for again at once, but a mailbox cannot be flooded.
 */
export const RESEND_LIMIT = { mails: 3, windowMs: 10 * 60 * 1000 };
export const RESEND_TEXTS = {
  verified: 'Your e-mail address is already verified',
  external: 'E-mail addresses are verified by the identity provider of this installation',
  tooMany:
    'Three verification mails were sent in the last 10 minutes. Please wait before asking again.',
};

/**
 * Mails a fresh verification link to a signed-in, unverified user. The count is read from the
 * links issued, in the database, so it holds across restarts and server instances.
 */
export async function resendVerification(
  deps: AccountDeps,
  user: UserRow,
  title: string,
): Promise<'sent' | 'verified' | { retryAfterMs: number }> {
  if (user.emailVerified) return 'verified';
  const since = new Date(Date.now() - RESEND_LIMIT.windowMs);
  const recent = await tokensIssuedSince(deps.db, user.id, 'verify', since);
  if (recent.length >= RESEND_LIMIT.mails) {
    const frees = recent[recent.length - RESEND_LIMIT.mails].getTime();
    return { retryAfterMs: Math.max(1000, frees + RESEND_LIMIT.windowMs - Date.now()) };
  }
  await sendVerification(deps, user, title);
  return 'sent';
}

/** Marks the e-mail of the link's user verified; following the link twice is fine. */
export async function verifyEmail(db: Db, token: string): Promise<UserRow | null> {
  const row = await userOfToken(db, token, 'verify');
  if (!row) return null;
  if (!row.usedAt) await consumeEmailToken(db, token, 'verify');
  await updateUser(db, row.userId, { emailVerified: true });
  return userById(db, row.userId);
}

/** Mails a reset link when the address has an account; says nothing either way. */
export async function requestPasswordReset(deps: AccountDeps, email: string, title: string) {
  const user = await userByEmail(deps.db, normalizeEmail(email));
  if (!user || (await tokenOnly(deps.db, user))) return;
  const token = await issueEmailToken(deps.db, user.id, 'reset');
  const url = `${deps.publicUrl}/oidc/reset?token=${token}`;
  await deps.mailer.send(resetMail({ to: user.email, name: user.name, title, url }));
}

/** Whether a reset link can still be used (to show its form, or an "expired" page). */
export async function resetTokenUsable(db: Db, token: string) {
  const row = await userOfToken(db, token, 'reset');
  // A link mailed to a service account before they were refused one opens nothing.
  return !!row && !row.usedAt && !(await isServiceAccountUser(db, row.userId));
}

/**
 * Sets a new password with a reset link. The link works once; a password change also retires
 * the user's other reset links. A valid reset proves control of the mailbox, so it verifies it.
 */
export async function resetPassword(
  db: Db,
  token: string,
  password: string,
): Promise<'ok' | 'invalid' | { error: string }> {
  const error = passwordError(password);
  if (error) return (await resetTokenUsable(db, token)) ? { error } : 'invalid';
  if (!(await resetTokenUsable(db, token))) return 'invalid';
  const userId = await consumeEmailToken(db, token, 'reset');
  if (!userId) return 'invalid';
  await updateUser(db, userId, { passwordHash: await hashPassword(password), emailVerified: true });
  await retireTokens(db, userId, 'reset');
  return 'ok';
}

/** The caller's own account, by their username; 404 when it is gone. */
export async function ownAccount(db: Db, username: string): Promise<UserRow> {
  const current = await userByUsername(db, username);
  if (!current) throw notFound('User not found');
  return current;
}

/**
 * Changes the caller's profile: name, address (a new one must be verified again: the mail is
 * sent, with `title` as the product's name) and acceptance of the terms. The account as it is
 * after the change.
 */
export async function updateProfile(
  deps: AccountDeps,
  username: string,
  body: z.infer<typeof ProfileUpdate>,
  title: string,
): Promise<UserRow> {
  const current = await ownAccount(deps.db, username);
  const changes: Parameters<typeof updateUser>[2] = {};
  if (body.name !== undefined) changes.name = body.name;
  if (body.email !== undefined && body.email.toLowerCase() !== current.email.toLowerCase()) {
    const other = await userByEmail(deps.db, body.email);
    if (other) throw conflict('This e-mail address is already in use', 'email');
    // A new address must be verified again.
    changes.email = body.email;
    changes.emailVerified = false;
  }
  if (body.terms_accepted === true && !current.termsAcceptedAt)
    changes.termsAcceptedAt = new Date();
  if (body.terms_accepted === false) changes.termsAcceptedAt = null;
  const updated = Object.keys(changes).length
    ? await updateUser(deps.db, current.id, changes)
    : current;
  if (changes.email) await sendVerification(deps, updated, title);
  return updated;
}
