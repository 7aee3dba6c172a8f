import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CacheEntry, CacheEntryCreate, FLOW_API } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import {
  cacheEntryById,
  cacheEntryByKey,
  deleteCacheEntries,
  projectById,
  upsertCacheEntry,
} from './service.js';
import { cacheEntryWire } from './wire.js';
import { checked, flowOf, Empty, Id, indexed, key } from './routes-common.js';

// The four make one unique index.
const short = indexed(256);
const Key = z.object({ project_id: key, batch: short, task_id: short, key: short });
const Create = CacheEntryCreate.extend(Key.shape);
const Clear = z.object({ project_id: key, batch: short.optional(), task_id: short.optional() });

/** Cache entries: a task's outputs by a key of what it ran, looked up before it runs again. */
export const cacheEntryRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // 404 is the wire's "not cached".
    app.get(
      `${FLOW_API}/cache_entries/by_key`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          querystring: Key,
          response: { 200: CacheEntry, ...errorResponses },
        },
      },
      async (request) => {
        const q = request.query;
        await checked(request, await flowOf(ctx.db, q.project_id), 'read', `Flow ${q.project_id}`);
        const found = await cacheEntryByKey(ctx.db, {
          projectId: q.project_id,
          batch: q.batch,
          taskId: q.task_id,
          key: q.key,
        });
        if (!found) throw notFound(`Task ${q.task_id} is not cached`);
        return cacheEntryWire(found);
      },
    );

    app.post(
      `${FLOW_API}/cache_entries`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['flows'], body: Create, response: { 201: CacheEntry, ...errorResponses } },
      },
      async (request, reply) => {
        const b = request.body;
        await checked(request, await flowOf(ctx.db, b.project_id), 'write', `Flow ${b.project_id}`);
        const saved = await upsertCacheEntry(
          ctx.db,
          { projectId: b.project_id, batch: b.batch, taskId: b.task_id, key: b.key },
          { outputs: b.outputs, state: b.state, rawId: b.raw_id ?? null },
        );
        return reply.status(201).send(cacheEntryWire(saved));
      },
    );

    app.get(
      `${FLOW_API}/cache_entries/:id`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['flows'], params: Id, response: { 200: CacheEntry, ...errorResponses } },
      },
      async (request) => {
        const found = await cacheEntryById(ctx.db, request.params.id);
        const row = found && {
          entry: found,
          project: (await projectById(ctx.db, found.projectId))!,
        };
        const { entry } = await checked(request, row, 'read', `Cache entry ${request.params.id}`);
        return cacheEntryWire(entry);
      },
    );

    // `clear-cache`: the flow's whole cache, a batch's, or one task's of a batch.
    app.delete(
      `${FLOW_API}/cache_entries`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          querystring: Clear,
          response: { 204: Empty, ...errorResponses },
        },
      },
      async (request, reply) => {
        const q = request.query;
        await checked(request, await flowOf(ctx.db, q.project_id), 'write', `Flow ${q.project_id}`);
        await deleteCacheEntries(ctx.db, {
          projectId: q.project_id,
          batch: q.batch,
          taskId: q.task_id,
        });
        return reply.status(204).send(null);
      },
    );
  };
