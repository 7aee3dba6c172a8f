import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { User, UserQuery } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { errorResponses } from '../../http/route.js';
import { userVisibleTo, userWire } from './service.js';

const Params = z.object({ name: z.string().min(1) });

export const userRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/v1/users/:name',
      {
        config: { access: 'user' },
        schema: {
          tags: ['users'],
          params: Params,
          querystring: UserQuery,
          response: { 200: User, ...errorResponses },
        },
      },
      async (request) => {
        const user = await userVisibleTo(ctx.db, requireUser(request), request.params.name);
        return userWire(ctx.db, user, request.query.include);
      },
    );
  };
