import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Attempt, AttemptCreate, FLOW_API } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import {
  attemptByNumber,
  attemptsOf,
  attemptWithProject,
  insertAttempt,
  replaceAttempt,
} from './service.js';
import { attemptWire } from './wire.js';
import { bakeListRoute, checked, checkedBake, Id, key, unlessTaken } from './routes-common.js';

const OfBake = z.object({ bake_id: key });
const ByNumber = OfBake.extend({
  // -1 is the wire's "the last attempt".
  number: z.coerce
    .number()
    .int()
    .refine((n) => n === -1 || (n >= 1 && n <= 2 ** 31 - 1), 'Must be -1 or a positive number'),
});
/** `replace` sends the whole attempt; its id and creation time stay the server's. */
const Replace = AttemptCreate.extend({
  number: z
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
});

/** Attempts of a bake: the first run and each restart; the executor polls them to notice cancel. */
export const attemptRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    bakeListRoute(app, ctx.db, 'attempts', Attempt, attemptsOf, attemptWire);

    app.post(
      `${FLOW_API}/attempts`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          body: Replace,
          response: { 201: Attempt, ...errorResponses },
        },
      },
      async (request, reply) => {
        const b = request.body;
        await checkedBake(ctx.db, request, b.bake_id, 'write');
        const created = await unlessTaken(
          () =>
            insertAttempt(ctx.db, {
              bakeId: b.bake_id,
              number: b.number,
              result: b.result,
              configsMeta: b.configs_meta,
              executorId: b.executor_id ?? null,
            }),
          `Attempt ${b.number} of bake ${b.bake_id} already exists`,
        );
        return reply.status(201).send(attemptWire(created));
      },
    );

    app.get(
      `${FLOW_API}/attempts/by_number`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          querystring: ByNumber,
          response: { 200: Attempt, ...errorResponses },
        },
      },
      async (request) => {
        const { bake_id, number } = request.query;
        await checkedBake(ctx.db, request, bake_id, 'read');
        const found = await attemptByNumber(ctx.db, bake_id, number);
        if (!found)
          throw notFound(`Bake ${bake_id} has no attempt ${number === -1 ? 'yet' : number}`);
        return attemptWire(found);
      },
    );

    app.put(
      `${FLOW_API}/attempts/replace`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['flows'], body: Replace, response: { 200: Attempt, ...errorResponses } },
      },
      async (request) => {
        const b = request.body;
        await checkedBake(ctx.db, request, b.bake_id, 'write');
        const replaced = await replaceAttempt(ctx.db, b.bake_id, b.number, {
          result: b.result,
          executorId: b.executor_id ?? null,
          configsMeta: b.configs_meta,
        });
        if (!replaced) throw notFound(`Bake ${b.bake_id} has no attempt ${b.number}`);
        return attemptWire(replaced);
      },
    );

    app.get(
      `${FLOW_API}/attempts/:id`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['flows'], params: Id, response: { 200: Attempt, ...errorResponses } },
      },
      async (request) => {
        const found = await attemptWithProject(ctx.db, request.params.id);
        const { attempt } = await checked(request, found, 'read', `Attempt ${request.params.id}`);
        return attemptWire(attempt);
      },
    );
  };
