import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Plan } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { HttpError, conflict, notFound } from '../../http/errors.js';
import type { PlanRow } from './tables.js';
import { deletePlansExpiredBefore, insertPlan, planById, takePlan } from './store-plans.js';

/** How long a proposed plan may be confirmed. */
export const PLAN_TTL_MS = 10 * 60_000;
/** Expired plans are kept this long (a late confirmation is told "expired", not "not found"). */
const KEEP_EXPIRED_MS = 24 * 3600_000;

export const PLAN_TEXTS = {
  notFound: (id: string) => `Plan ${id} not found`,
  wrongConfirmation: 'The confirmation does not match this plan',
  used: 'This plan was already confirmed',
  expired: 'This plan expired: ask the assistant again',
} as const;

/** A change a tool worked out, before it is stored as a plan for one user. */
export interface PlanSpec {
  title: string;
  call: { method: 'POST' | 'DELETE'; path: string; body?: unknown };
  context: { cluster: string; org: string; project: string };
  creditsPerHour: string | null;
  /** The console page where the result is seen. */
  resultUrl: string | null;
  /** What the confirmation answers when the call succeeded. */
  doneMessage: string;
}

const hashOf = (confirmation: string) => createHash('sha256').update(confirmation).digest('hex');

/** Stores a plan for `userId` and returns it with its one-time confirmation (never stored). */
export async function createPlan(db: Db, userId: string, spec: PlanSpec, now = new Date()) {
  const confirmation = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now.getTime() + PLAN_TTL_MS);
  const row = await insertPlan(db, {
    id: `plan-${randomUUID()}`,
    userId,
    title: spec.title,
    method: spec.call.method,
    path: spec.call.path,
    body: spec.call.body ?? null,
    cluster: spec.context.cluster,
    org: spec.context.org,
    project: spec.context.project,
    creditsPerHour: spec.creditsPerHour,
    resultUrl: spec.resultUrl,
    doneMessage: spec.doneMessage,
    confirmationHash: hashOf(confirmation),
    expiresAt,
  });
  // Old plans go as new ones come: no timer, and any replica does it.
  await deletePlansExpiredBefore(db, new Date(now.getTime() - KEEP_EXPIRED_MS));
  return planWire(row!, confirmation);
}

export const planWire = (r: PlanRow, confirmation: string): Plan => ({
  id: r.id,
  title: r.title,
  call: {
    method: r.method,
    path: r.path,
    ...(r.body === null || r.body === undefined ? {} : { body: r.body }),
  },
  context: { cluster: r.cluster, org: r.org, project: r.project },
  credits_per_hour: r.creditsPerHour,
  confirmation,
  expires_at: r.expiresAt.toISOString(),
});

const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Takes a plan for `userId` with its confirmation, once: another user's plan is "not found" (as
 * another tenant's resource), a wrong confirmation 403, a used or expired plan 409. The update
 * that consumes it is conditional, so two confirmations racing on two replicas perform it once.
 */
export async function consumePlan(
  db: Db,
  id: string,
  userId: string,
  confirmation: string,
  now = new Date(),
): Promise<PlanRow> {
  const row = await planById(db, id);
  if (!row || row.userId !== userId) throw notFound(PLAN_TEXTS.notFound(id));
  if (!sameHash(hashOf(confirmation), row.confirmationHash))
    throw new HttpError('forbidden', PLAN_TEXTS.wrongConfirmation);
  if (row.consumedAt) throw conflict(PLAN_TEXTS.used);
  if (row.expiresAt.getTime() <= now.getTime()) throw conflict(PLAN_TEXTS.expired);
  const taken = await takePlan(db, id, now);
  if (!taken) throw conflict(PLAN_TEXTS.used);
  return taken;
}
