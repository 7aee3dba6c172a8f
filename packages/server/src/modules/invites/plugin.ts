import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { inviteRoutes } from './routes.js';
/** Invitations to organizations. */
export const invitesModule =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    await app.register(inviteRoutes(ctx));
  };
