import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { principalOf } from '../../auth/principal-hook.js';
import { consumeOneTimeToken, deleteExpiredTokens, insertOneTimeToken } from '../accounts/store.js';
import { userById } from '../users/store.js';

/**
 * How a browser gets into a job's host without the user's API token ever leaving the console:
 * the console asks for a ticket (`POST /api/v1/jobs/{id}/ingress-ticket`), a random one-time
 * value bound to one job key and valid for a minute; the job's host takes it once from the
 * address and answers with a cookie of its own host holding a credential signed for that one
 * key. Neither is a token the API accepts, and neither opens another job's host.
 */

/** Tickets share the one-time links' table (hashed, expiring, used once), under a kind of their own. */
const TICKET_KIND = 'ingress';
export const TICKET_TTL_MS = 60_000;
/** How long the job's cookie lasts; every request still checks the user's current permission. */
export const COOKIE_TTL_S = 12 * 60 * 60;
/** The query parameter the console's Open puts the ticket in. */
export const TICKET_PARAM = 'orrery_ticket';

/** The ticket is stored hashed together with its key: presented at another job's host, it matches nothing. */
const ticketHash = (ticket: string, key: string) =>
  createHash('sha256').update(`${key}\n${ticket}`).digest('base64url');

/** A ticket for `key` (a job id or name key) on behalf of `userId`. */
export async function issueTicket(db: Db, userId: string, key: string, ttlMs = TICKET_TTL_MS) {
  const ticket = randomBytes(32).toString('base64url');
  // Spent and expired tickets are of no use to anyone: drop them as new ones are made.
  await deleteExpiredTokens(db, TICKET_KIND);
  await insertOneTimeToken(db, {
    tokenHash: ticketHash(ticket, key),
    userId,
    kind: TICKET_KIND,
    expiresAt: new Date(Date.now() + ttlMs),
  });
  return ticket;
}

/**
 * The user of an unexpired, unused ticket for `key`, marking it used in the same statement so
 * that two requests racing with one ticket cannot both get in. Null otherwise.
 */
export async function consumeTicket(db: Db, ticket: string, key: string) {
  if (!ticket || ticket.length > 200) return null;
  return consumeOneTimeToken(db, ticketHash(ticket, key), TICKET_KIND);
}

/** The user a ticket or a job host's cookie names, as a caller; null when they are gone. */
export async function callerOf(db: Db, userId: string | null) {
  const user = userId ? await userById(db, userId) : null;
  return user ? principalOf(user) : null;
}

/** The cookie's signing key, derived from the secrets key so every replica shares it. */
export const cookieKeyOf = (sealKey: Buffer) =>
  Buffer.from(hkdfSync('sha256', sealKey, Buffer.alloc(0), 'orrery ingress cookie', 32));

interface Claims {
  /** The user's id. */
  u: string;
  /** The job key whose host set the cookie. */
  k: string;
  /** Expiry, seconds since the epoch. */
  e: number;
}

const sign = (key: Buffer, payload: string) =>
  createHmac('sha256', key).update(payload).digest('base64url');

/** The cookie's value: the claims and their signature. */
export function signCredential(key: Buffer, userId: string, jobKey: string, ttlS = COOKIE_TTL_S) {
  const claims: Claims = { u: userId, k: jobKey, e: Math.floor(Date.now() / 1000) + ttlS };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

/** The user id of a valid, unexpired credential for `jobKey`, else null. */
export function verifyCredential(key: Buffer, value: string, jobKey: string): string | null {
  const [payload, mac, extra] = value.split('.');
  if (!payload || !mac || extra !== undefined) return null;
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<Claims>;
    if (c.k !== jobKey || typeof c.u !== 'string' || typeof c.e !== 'number') return null;
    return c.e > Date.now() / 1000 ? c.u : null;
  } catch {
    return null;
  }
}

/** `__Host-` on https: a cookie no other host (a sibling job's page included) can set or widen. */
export const cookieName = (secure: boolean) =>
  secure ? '__Host-orrery_ingress' : 'orrery_ingress';

/** The values of the cookie `name` in a Cookie header, and the header without them. */
export function splitCookies(header: string | undefined, name: string) {
  const mine: string[] = [];
  const others: string[] = [];
  for (const part of (header ?? '').split(';')) {
    const t = part.trim();
    if (!t) continue;
    if (t.startsWith(`${name}=`)) mine.push(t.slice(name.length + 1));
    else others.push(t);
  }
  return { mine, others: others.join('; ') };
}
