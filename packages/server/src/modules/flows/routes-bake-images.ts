import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BakeImage, BakeImageCreate, BakeImagePatch, FLOW_API } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import {
  bakeImageByRef,
  bakeImagesOf,
  bakeImageWithProject,
  insertBakeImage,
  patchBakeImage,
} from './service.js';
import { bakeImageWire } from './wire.js';
import {
  bakeListRoute,
  checked,
  checkedBake,
  Id,
  indexed,
  key,
  unlessTaken,
} from './routes-common.js';

const OfBake = z.object({ bake_id: key });
const ByRef = OfBake.extend({ ref: key });
// The ref is half of a unique index.
const Create = BakeImageCreate.extend({ ref: indexed(1024) });

/** Images a bake builds before its tasks run; a flow without images only lists them. */
export const bakeImageRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    bakeListRoute(app, ctx.db, 'bake_images', BakeImage, bakeImagesOf, bakeImageWire);

    app.get(
      `${FLOW_API}/bake_images/by_ref`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          querystring: ByRef,
          response: { 200: BakeImage, ...errorResponses },
        },
      },
      async (request) => {
        const { bake_id, ref } = request.query;
        await checkedBake(ctx.db, request, bake_id, 'read');
        const found = await bakeImageByRef(ctx.db, bake_id, ref);
        if (!found) throw notFound(`Image ${ref} not found in bake ${bake_id}`);
        return bakeImageWire(found);
      },
    );

    app.post(
      `${FLOW_API}/bake_images`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['flows'], body: Create, response: { 201: BakeImage, ...errorResponses } },
      },
      async (request, reply) => {
        const b = request.body;
        await checkedBake(ctx.db, request, b.bake_id, 'write');
        const created = await unlessTaken(
          () =>
            insertBakeImage(ctx.db, {
              bakeId: b.bake_id,
              ref: b.ref,
              status: b.status,
              yamlDefs: b.yaml_defs,
              contextOnStorage: b.context_on_storage ?? null,
              dockerfileRel: b.dockerfile_rel ?? null,
              builderJobId: b.builder_job_id ?? null,
              prefix: b.prefix ?? null,
              yamlId: b.yaml_id ?? null,
            }),
          `Image ${b.ref} already exists in bake ${b.bake_id}`,
        );
        return reply.status(201).send(bakeImageWire(created));
      },
    );

    app.patch(
      `${FLOW_API}/bake_images/:id`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          params: Id,
          body: BakeImagePatch,
          response: { 200: BakeImage, ...errorResponses },
        },
      },
      async (request) => {
        const found = await bakeImageWithProject(ctx.db, request.params.id);
        const { image } = await checked(request, found, 'write', `Image ${request.params.id}`);
        const b = request.body;
        const change = {
          ...(b.status === undefined ? {} : { status: b.status }),
          ...(b.builder_job_id === undefined ? {} : { builderJobId: b.builder_job_id }),
        };
        if (Object.keys(change).length === 0) return bakeImageWire(image);
        return bakeImageWire((await patchBakeImage(ctx.db, image.id, change)) ?? image);
      },
    );

    app.get(
      `${FLOW_API}/bake_images/:id`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['flows'], params: Id, response: { 200: BakeImage, ...errorResponses } },
      },
      async (request) => {
        const found = await bakeImageWithProject(ctx.db, request.params.id);
        const { image } = await checked(request, found, 'read', `Image ${request.params.id}`);
        return bakeImageWire(image);
      },
    );
  };
