import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DEFAULT_CLUSTER,
  Disk,
  DiskCreate,
  DiskList,
  DiskListQuery,
  DiskScopeQuery,
  diskUri,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { authorize } from '../../http/access.js';
import { errorResponses } from '../../http/route.js';
import type { ProjectPlace } from './store.js';
import { diskWire } from './wire.js';
import { createDisk, deleteDisk, diskOf, disksOf, withUsage, type DiskHolders } from './service.js';
import { REAP_EVERY_MS, startDiskReaper } from './reaper.js';
import { ownsDisk } from './refinements.js';

const OneDisk = z.object({ disk: z.string().min(1) });

/**
 * Access is checked before validation, so the URI is read from the raw query or body; a missing
 * organization or project yields a URI nobody holds (404), and validation never runs.
 */
const str = (v: unknown) => (typeof v === 'string' ? v : '');
function placeOf(source: unknown): ProjectPlace {
  const s = (source ?? {}) as Record<string, unknown>;
  return {
    cluster: str(s.cluster_name) || DEFAULT_CLUSTER,
    org: str(s.org_name),
    project: str(s.project_name),
  };
}
const projectDisks = (p: ProjectPlace) => diskUri(p.cluster, p.org || '-', p.project || '-');
const fromQuery = (r: FastifyRequest) => projectDisks(placeOf(r.query));
const oneFromQuery = (r: FastifyRequest) =>
  `${fromQuery(r)}/${encodeURIComponent((r.params as { disk?: string }).disk ?? '-')}`;

const placeOfQuery = (q: { cluster_name: string; org_name: string; project_name: string }) => ({
  cluster: q.cluster_name,
  org: q.org_name,
  project: q.project_name,
});

/** The disk API under `disks_url` = `/api/v1/disk`. */
export const diskRoutes =
  (
    ctx: AppContext,
    holders: DiskHolders,
    opts: { reapEveryMs?: number } = {},
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const reaper = startDiskReaper(ctx, holders, app.log, opts.reapEveryMs ?? REAP_EVERY_MS);
    app.addHook('onClose', () => reaper.stop());

    app.get(
      '/api/v1/disk',
      {
        config: { access: { uri: fromQuery, action: 'read' } },
        schema: {
          tags: ['disks'],
          querystring: DiskListQuery,
          response: { 200: DiskList, ...errorResponses },
        },
      },
      async (request) => {
        const place = placeOfQuery(request.query);
        return (await disksOf(ctx, holders.measures, place, request.query.owner)).map(diskWire);
      },
    );

    app.post(
      '/api/v1/disk',
      {
        config: { access: { uri: (r) => projectDisks(placeOf(r.body)), action: 'write' } },
        schema: {
          tags: ['disks'],
          body: DiskCreate,
          response: { 201: Disk, ...errorResponses },
        },
      },
      async (request, reply) => {
        const b = request.body;
        const created = await createDisk(ctx, requireUser(request), placeOfQuery(b), {
          storage: b.storage,
          lifeSpan: b.life_span,
          name: b.name,
        });
        return reply.status(201).send(diskWire(created));
      },
    );

    app.get(
      '/api/v1/disk/:disk',
      {
        config: { access: { uri: oneFromQuery, action: 'read' } },
        schema: {
          tags: ['disks'],
          params: OneDisk,
          querystring: DiskScopeQuery,
          response: { 200: Disk, ...errorResponses },
        },
      },
      async (request) => {
        const place = placeOfQuery(request.query);
        const found = await diskOf(ctx, place, request.params.disk);
        // Reading one disk measures it now; lists use measurements up to 30 s old.
        return diskWire(await withUsage(ctx, holders.measures, found, true));
      },
    );

    app.delete(
      '/api/v1/disk/:disk',
      {
        config: { access: { uri: oneFromQuery, action: 'read' } },
        schema: {
          tags: ['disks'],
          params: OneDisk,
          querystring: DiskScopeQuery,
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        const place = placeOfQuery(request.query);
        const found = await diskOf(ctx, place, request.params.disk);
        // The owner manages their disk; anyone else needs manage on it (project managers, shares).
        if (!ownsDisk(found, caller)) {
          await authorize(
            request,
            diskUri(place.cluster, place.org, place.project, found.id),
            'manage',
          );
        }
        await deleteDisk(ctx, holders, found);
        return reply.status(204).send(null);
      },
    );
  };
