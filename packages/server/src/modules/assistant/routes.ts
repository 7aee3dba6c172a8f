import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody, ErrorCode, PlanConfirm, PlanOutcome } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { bearerOf, requireUser } from '../../auth/principal.js';
import { HttpError, unauthorized } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import { consumePlan } from './plans.js';

const OnePlan = z.object({ id: z.string().min(1).max(100) });

/**
 * `POST /api/v1/copilot/plans/{id}/confirm`: the user's consent to one plan. The plan is taken
 * once, then its call is made as the user: injected into this server with the user's own bearer,
 * so the route that performs it checks permissions again and runs its own service code.
 */
export const planRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/v1/copilot/plans/:id/confirm',
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['copilot'],
          params: OnePlan,
          body: PlanConfirm,
          response: { 200: PlanOutcome, ...errorResponses, 422: ErrorBody, 429: ErrorBody },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const token = bearerOf(request);
        if (!token) throw unauthorized();
        const plan = await consumePlan(
          ctx.db,
          request.params.id,
          user.id,
          request.body.confirmation,
        );
        const res = await app.inject({
          method: plan.method as 'POST' | 'DELETE',
          url: plan.path,
          headers: { authorization: `Bearer ${token}` },
          ...(plan.body === null ? {} : { payload: plan.body as object }),
        });
        if (res.statusCode >= 400) {
          const body = safeJson(res.body);
          const code = ErrorCode.safeParse(body?.error);
          throw new HttpError(
            code.success ? code.data : 'internal',
            typeof body?.message === 'string'
              ? body.message
              : `The call failed (${res.statusCode})`,
          );
        }
        request.log.info(
          { plan: plan.id, method: plan.method, status: res.statusCode },
          'copilot plan performed',
        );
        return { status: 'done' as const, message: plan.doneMessage, url: plan.resultUrl };
      },
    );
  };

function safeJson(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
