import { orgUri, type OrgRole } from '@orrery/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../auth/principal.js';
import { orgRoleOf } from '../../auth/permissions.js';
import { authorize } from '../../http/access.js';
import { conflict, forbidden, HttpError, notFound } from '../../http/errors.js';
import { brandingFor } from '../config/branding.js';
import { userByEmail } from '../users/store.js';
import { inviteMail } from './mails.js';
import { inviteProof } from './proof.js';
import {
  acceptInviteRow,
  deleteInvite,
  insertInvite,
  inviteById,
  pendingInvites,
  updateInvite,
  invitesOf as invitesOfOrg,
  invitesTo as invitesToAddress,
  type InviteRow,
} from './store.js';
import { statusOf } from './wire.js';

export const VERIFY_BEFORE_ACCEPT = 'Verify your e-mail address before accepting an invitation';
const NOT_FOUND = 'Invitation not found';

/**
 * Where the mail's link points: the console's origin when it is this server's address or one of
 * its white-label hostnames; any other origin is ignored, so nobody can have this server mail a
 * link to a site of their choosing.
 */
export function linkBase(ctx: AppContext, origin: string | undefined) {
  if (origin) {
    try {
      const o = new URL(origin);
      const own = new URL(ctx.config.publicUrl);
      if (o.host === own.host || ctx.config.branding.whiteLabels[o.hostname.toLowerCase()]) {
        return o.origin;
      }
    } catch {
      /* not a URL: fall back to the public address */
    }
  }
  return ctx.config.publicUrl;
}

async function sendInvite(
  ctx: AppContext,
  request: FastifyRequest,
  row: InviteRow,
  origin: string | undefined,
) {
  const base = linkBase(ctx, origin);
  // Someone without an account signs up first and comes back to the invitation.
  const hasAccount = !!(await userByEmail(ctx.db, row.email));
  const url = hasAccount
    ? `${base}/invites/${row.id}`
    : `${base}/invite-signup?invite=${row.id}&email=${encodeURIComponent(row.email)}` +
      `&proof=${inviteProof(ctx.config, row.id, row.email)}`;
  const caller = request.principal!;
  await ctx.mailer.send(
    inviteMail({
      to: row.email,
      org: row.orgName,
      role: row.role,
      inviter: caller.name || caller.username,
      title: brandingFor(ctx.config, request.hostname).title,
      url,
      expiresAt: row.expiresAt,
    }),
  );
}

const expiry = (ctx: AppContext) => new Date(Date.now() + ctx.config.inviteTtlSeconds * 1000);

export async function createInvite(
  ctx: AppContext,
  request: FastifyRequest,
  p: { email: string; role: OrgRole; org: string; origin?: string },
) {
  const { db } = ctx;
  const caller = request.principal!;
  if (p.role === 'admin' && caller.systemRole !== 'admin') {
    if ((await orgRoleOf(db, caller.id, p.org)) !== 'admin') {
      throw forbidden('Only an organization admin may give or change the admin role');
    }
  }
  const existing = await userByEmail(db, p.email);
  if (existing && (await orgRoleOf(db, existing.id, p.org))) {
    throw conflict(`User ${p.email} is already a member of ${p.org} organization`, 'email');
  }
  const open = await pendingInvites(db, p.org, p.email);
  if (open.some((r) => statusOf(r) === 'pending')) {
    throw conflict(`User ${p.email} is already invited to ${p.org} organization`, 'email');
  }
  const row = await insertInvite(db, {
    orgName: p.org,
    email: p.email,
    role: p.role,
    invitedBy: caller.id,
    expiresAt: expiry(ctx),
  });
  await sendInvite(ctx, request, row, p.origin);
  return row;
}

/** An invite the caller may act on as its organization's manager (else 404 or 403). */
export async function managedInvite(request: FastifyRequest, ctx: AppContext, id: string) {
  const row = await inviteById(ctx.db, id);
  if (!row) throw notFound(NOT_FOUND);
  await authorize(request, orgUri(row.orgName), 'manage');
  return row;
}

/** An invite addressed to the caller; to anyone else it does not exist. */
export async function ownInvite(ctx: AppContext, caller: Principal, id: string) {
  const row = await inviteById(ctx.db, id);
  if (!row || row.email.toLowerCase() !== caller.email.toLowerCase()) throw notFound(NOT_FOUND);
  return row;
}

/** The invitee, or a manager of its organization, may read an invite. */
export async function readableInvite(request: FastifyRequest, ctx: AppContext, id: string) {
  const caller = request.principal!;
  try {
    return await ownInvite(ctx, caller, id);
  } catch {
    return managedInvite(request, ctx, id);
  }
}

export async function resendInvite(
  ctx: AppContext,
  request: FastifyRequest,
  row: InviteRow,
  origin: string | undefined,
) {
  if (row.status === 'accepted') throw conflict('This invitation was already accepted');
  const updated = await updateInvite(ctx.db, row.id, { status: 'pending', expiresAt: expiry(ctx) });
  await sendInvite(ctx, request, updated, origin);
  return updated;
}

function assertPending(row: InviteRow) {
  const status = statusOf(row);
  if (status !== 'pending') throw new HttpError('conflict', `This invitation is ${status}`);
}

/**
 * Accepting adds the caller to the organization with the invite's role. The address must be
 * verified: the invite was mailed there, and an unverified account does not prove that its owner
 * reads it.
 */
export async function acceptInvite(ctx: AppContext, caller: Principal, id: string) {
  const row = await ownInvite(ctx, caller, id);
  if (!caller.emailVerified) throw forbidden(VERIFY_BEFORE_ACCEPT);
  assertPending(row);
  return acceptInviteRow(ctx.db, row, caller.id);
}

export async function declineInvite(ctx: AppContext, caller: Principal, id: string) {
  const row = await ownInvite(ctx, caller, id);
  assertPending(row);
  return updateInvite(ctx.db, row.id, { status: 'declined' });
}

/** The invitations sent to an address (the caller's incoming ones). */
export const invitesTo = (ctx: AppContext, email: string) => invitesToAddress(ctx.db, email);

/** The invitations of an organization. */
export const invitesOf = (ctx: AppContext, org: string) => invitesOfOrg(ctx.db, org);

/** Deletes an invitation, for those who manage its organization. */
export async function deleteManagedInvite(request: FastifyRequest, ctx: AppContext, id: string) {
  const row = await managedInvite(request, ctx, id);
  await deleteInvite(ctx.db, row.id);
}
