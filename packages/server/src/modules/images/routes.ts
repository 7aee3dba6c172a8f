import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DEFAULT_IMAGE_CLUSTER,
  ErrorBody,
  IMAGES_UNAVAILABLE,
  ImageDetails,
  ImageList,
  ImageListQuery,
  ImageTagsQuery,
  imageUri,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { HttpError, notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import { readableRepositories } from './catalog.js';
import { tagDetails, tagsOf } from './details.js';
import { placeOf } from './names.js';
import type { Upstream } from './upstream.js';

/**
 * Access is checked before validation, so the URI is read from the raw query; a missing
 * organization or project yields a URI nobody holds (404).
 */
const str = (v: unknown) => (typeof v === 'string' ? v : '');
function scopeUri(r: FastifyRequest, withName: boolean) {
  const q = (r.query ?? {}) as Record<string, unknown>;
  const cluster = str(q.cluster_name) || DEFAULT_IMAGE_CLUSTER;
  const name = withName ? str(q.name) || '-' : undefined;
  return imageUri(cluster, str(q.org_name) || '-', str(q.project_name) || '-', name);
}

/** The registry host in image references: the host of `registry_url` (the public URL). */
const hostOf = (ctx: AppContext) => new URL(ctx.config.publicUrl).host;

/** The console's `/api/v1/images`: the repositories and tags the caller may read. */
export const imageRoutes =
  (ctx: AppContext, upstream: Upstream): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/v1/images',
      {
        config: { access: { uri: (r) => scopeUri(r, false), action: 'read' } },
        schema: {
          tags: ['images'],
          querystring: ImageListQuery,
          response: { 200: ImageList, ...errorResponses },
        },
      },
      async (request) => {
        const q = request.query;
        const registry = await upstream.registry();
        const registry_host = hostOf(ctx);
        if (!registry)
          return { available: false, message: IMAGES_UNAVAILABLE, registry_host, images: [] };
        const places = await readableRepositories(ctx.db, registry, await request.grants(), {
          org: q.org_name,
          project: q.project_name,
          cluster: q.cluster_name,
        });
        const images = await Promise.all(
          places.map(async (p) => ({
            name: p.name,
            repository: p.repository,
            tags: await tagsOf(registry, p.repository),
          })),
        );
        return { available: true, message: null, registry_host, images };
      },
    );

    app.get(
      '/api/v1/images/tags',
      {
        config: { access: { uri: (r) => scopeUri(r, true), action: 'read' } },
        schema: {
          tags: ['images'],
          querystring: ImageTagsQuery,
          response: { 200: ImageDetails, ...errorResponses, 503: ErrorBody },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const registry = await upstream.registry();
        if (!registry) {
          const e = new HttpError('internal', IMAGES_UNAVAILABLE);
          return reply.status(503).send(e.body());
        }
        const place = await placeOf(ctx.db, `${q.org_name}/${q.project_name}/${q.name}`);
        if (!place || place.cluster !== q.cluster_name) throw notFound(`Image ${q.name} not found`);
        const tags = await tagsOf(registry, place.repository);
        if (tags.length === 0) throw notFound(`Image ${q.name} not found`);
        return {
          name: place.name,
          repository: place.repository,
          image: `${hostOf(ctx)}/${place.repository}`,
          tags: await Promise.all(tags.map((t) => tagDetails(registry, place.repository, t))),
        };
      },
    );
  };
