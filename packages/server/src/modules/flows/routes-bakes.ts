import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Bake, BakeCreate, ConfigFile, ConfigFileCreate, FLOW_API } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { sendList } from '../../http/ndjson.js';
import { notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import {
  bakeByName,
  bakesOf,
  bakeWithProject,
  configFileWithProject,
  insertBake,
  insertConfigFile,
  lastAttempts,
  projectById,
} from './service.js';
import type { BakeRow } from './store.js';
import { bakeWire, configFileWire } from './wire.js';
import {
  checked,
  checkedBake,
  flag,
  flowOf,
  Id,
  key,
  many,
  readable,
  unlessTaken,
  wireDate,
} from './routes-common.js';

const Fetch = z.object({ fetch_last_attempt: flag.optional() });
const ListQuery = Fetch.extend({
  project_id: key,
  name: key.optional(),
  tags: many(key),
  since: wireDate.optional(),
  until: wireDate.optional(),
  reverse: flag.optional(),
});
const ByName = Fetch.extend({ project_id: key, name: key });

/** Bakes (a run of a batch) and the config files the client records with each. */
export const bakeRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    /** The bakes' wire, each with its last attempt when the caller asked for it. */
    const wire = async (rows: BakeRow[], withLast: boolean | undefined) => {
      if (!withLast) return rows.map((r) => bakeWire(r));
      const last = await lastAttempts(
        ctx.db,
        rows.map((r) => r.id),
      );
      return rows.map((r) => bakeWire(r, last.get(r.id) ?? null));
    };

    app.get(
      `${FLOW_API}/bakes`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          querystring: ListQuery,
          response: { 200: z.array(Bake), ...errorResponses },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const project = await projectById(ctx.db, q.project_id);
        const rows = (await readable(request, project))
          ? await bakesOf(ctx.db, q.project_id, {
              name: q.name,
              tags: q.tags,
              since: q.since,
              until: q.until,
              reverse: q.reverse ?? false,
            })
          : [];
        return sendList(request, reply, await wire(rows, q.fetch_last_attempt));
      },
    );

    app.post(
      `${FLOW_API}/bakes`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['flows'], body: BakeCreate, response: { 201: Bake, ...errorResponses } },
      },
      async (request, reply) => {
        const b = request.body;
        await checked(request, await flowOf(ctx.db, b.project_id), 'write', `Flow ${b.project_id}`);
        const created = await unlessTaken(
          () =>
            insertBake(ctx.db, {
              projectId: b.project_id,
              name: b.name ?? null,
              batch: b.batch,
              tags: b.tags,
              graphs: b.graphs,
              params: b.params ?? null,
              meta: b.meta,
              creatorId: requireUser(request).id,
            }),
          `A bake named ${b.name} already exists in this flow`,
        );
        return reply.status(201).send(bakeWire(created));
      },
    );

    app.get(
      `${FLOW_API}/bakes/by_name`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          querystring: ByName,
          response: { 200: Bake, ...errorResponses },
        },
      },
      async (request) => {
        const q = request.query;
        await checked(request, await flowOf(ctx.db, q.project_id), 'read', `Flow ${q.project_id}`);
        const bake = await bakeByName(ctx.db, q.project_id, q.name);
        if (!bake) throw notFound(`Bake ${q.name} not found`);
        return (await wire([bake], q.fetch_last_attempt))[0]!;
      },
    );

    app.get(
      `${FLOW_API}/bakes/:id`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          params: Id,
          querystring: Fetch,
          response: { 200: Bake, ...errorResponses },
        },
      },
      async (request) => {
        const found = await bakeWithProject(ctx.db, request.params.id);
        const { bake } = await checked(request, found, 'read', `Bake ${request.params.id}`);
        return (await wire([bake], request.query.fetch_last_attempt))[0]!;
      },
    );

    app.post(
      `${FLOW_API}/config_files`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          body: ConfigFileCreate,
          response: { 201: ConfigFile, ...errorResponses },
        },
      },
      async (request, reply) => {
        const b = request.body;
        await checkedBake(ctx.db, request, b.bake_id, 'write');
        const created = await insertConfigFile(ctx.db, {
          bakeId: b.bake_id,
          filename: b.filename,
          content: b.content,
        });
        return reply.status(201).send(configFileWire(created));
      },
    );

    app.get(
      `${FLOW_API}/config_files/:id`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['flows'], params: Id, response: { 200: ConfigFile, ...errorResponses } },
      },
      async (request) => {
        const found = await configFileWithProject(ctx.db, request.params.id);
        const { file } = await checked(request, found, 'read', `Config file ${request.params.id}`);
        return configFileWire(file);
      },
    );
  };
