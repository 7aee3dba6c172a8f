import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Invite, InviteCreate, InviteResend, orgUri } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { notFound } from '../../http/errors.js';
import { ADMIN_API, errorResponses } from '../../http/route.js';
import {
  acceptInvite,
  createInvite,
  declineInvite,
  deleteManagedInvite,
  invitesOf,
  invitesTo,
  managedInvite,
  readableInvite,
  resendInvite,
} from './service.js';
import { inviteWire } from './wire.js';

const tags = ['invites'];
const IdParams = z.object({ id: z.string().min(1) });
const OrgParams = z.object({ org: z.string().min(1) });
const str = (v: unknown) => (typeof v === 'string' && v ? v : '-');

/** Invitations to organizations, on the admin API's base path. */
export const inviteRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      `${ADMIN_API}/invites/incoming`,
      {
        config: { access: 'user' },
        schema: { tags, response: { 200: z.array(Invite), ...errorResponses } },
      },
      async (request) => (await invitesTo(ctx, requireUser(request).email)).map(inviteWire),
    );

    app.get(
      `${ADMIN_API}/orgs/:org/invites`,
      {
        config: {
          access: { uri: (r) => orgUri(str((r.params as { org?: string }).org)), action: 'manage' },
        },
        schema: {
          tags,
          params: OrgParams,
          response: { 200: z.array(Invite), ...errorResponses },
        },
      },
      async (request) => (await invitesOf(ctx, request.params.org)).map(inviteWire),
    );

    app.post(
      `${ADMIN_API}/invites`,
      {
        // Access is checked before validation: the organization is read from the raw body.
        config: {
          access: {
            uri: (r) => orgUri(str((r.body as { org_name?: unknown } | undefined)?.org_name)),
            action: 'manage',
          },
        },
        schema: { tags, body: InviteCreate, response: { 201: Invite, ...errorResponses } },
      },
      async (request, reply) => {
        const b = request.body;
        const row = await createInvite(ctx, request, {
          email: b.email,
          role: b.role_name,
          org: b.org_name,
          origin: b.origin,
        });
        return reply.status(201).send(inviteWire(row));
      },
    );

    app.get(
      `${ADMIN_API}/invites/:id`,
      {
        config: { access: 'user' },
        schema: { tags, params: IdParams, response: { 200: Invite, ...errorResponses } },
      },
      async (request) => inviteWire(await readableInvite(request, ctx, request.params.id)),
    );

    app.post(
      `${ADMIN_API}/invites/:id/accept`,
      {
        config: { access: 'user' },
        schema: { tags, params: IdParams, response: { 200: Invite, ...errorResponses } },
      },
      async (request) =>
        inviteWire(await acceptInvite(ctx, requireUser(request), request.params.id)),
    );

    app.post(
      `${ADMIN_API}/invites/:id/decline`,
      {
        config: { access: 'user' },
        schema: { tags, params: IdParams, response: { 200: Invite, ...errorResponses } },
      },
      async (request) =>
        inviteWire(await declineInvite(ctx, requireUser(request), request.params.id)),
    );

    app.post(
      `${ADMIN_API}/invites/:id/resend`,
      {
        config: { access: 'user' },
        schema: {
          tags,
          params: IdParams,
          body: InviteResend,
          response: { 200: Invite, ...errorResponses },
        },
      },
      async (request) => {
        const row = await managedInvite(request, ctx, request.params.id);
        if (row.orgName !== request.body.org_name) throw notFound('Invitation not found');
        return inviteWire(await resendInvite(ctx, request, row, request.body.origin));
      },
    );

    app.delete(
      `${ADMIN_API}/invites/:id`,
      {
        config: { access: 'user' },
        schema: { tags, params: IdParams, response: { 204: z.null(), ...errorResponses } },
      },
      async (request, reply) => {
        await deleteManagedInvite(request, ctx, request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
