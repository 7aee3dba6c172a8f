import { z } from 'zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BucketScopeQuery,
  PersistentCredentials,
  PersistentCredentialsCreate,
  PersistentCredentialsList,
} from '@orrery/contract';
import { requireUser } from '../../auth/principal.js';
import { allows } from '../../auth/permissions.js';
import { forbidden, notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import type { ProjectPlace } from './store.js';
import {
  bucketsIn,
  createCredentials,
  credentialsByIdOrName,
  credentialsIn,
  deleteCredentials,
  type BucketContext,
} from './service.js';
import { bucketUriOf, credentialsWire } from './wire.js';
import { sendList } from '../../http/ndjson.js';
import { BUCKETS_BASE as BASE, fromQuery, placeOf, placeOfQuery, projectBlobs } from './scope.js';

const OneCredentials = z.object({ credentials: z.string().min(1) });

/**
 * Persistent credentials to a project's buckets, at `…/persistent_credentials` (docs/buckets.md).
 * Their keys are in the answer to the call that makes them and nowhere else.
 */
export function credentialRoutes(app: FastifyInstance, bc: BucketContext) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  /** The project's buckets the caller may read: credentials show only when all theirs are. */
  const readable = async (request: FastifyRequest, p: ProjectPlace) => {
    const grants = await request.grants();
    return (await bucketsIn(bc.db, p)).filter((b) => allows(grants, bucketUriOf(b), 'read'));
  };

  api.get(
    `${BASE}/persistent_credentials`,
    {
      config: { access: { uri: fromQuery, action: 'read' } },
      schema: {
        tags: ['buckets'],
        querystring: BucketScopeQuery,
        response: { 200: PersistentCredentialsList },
      },
    },
    async (request, reply) => {
      const p = placeOfQuery(request.query);
      const known = await readable(request, p);
      // Only credentials to buckets the caller may read, all of them.
      const all = (await credentialsIn(bc.db, p)).filter((c) =>
        c.bucketIds.every((id) => known.some((b) => b.id === id)),
      );
      return sendList(
        request,
        reply,
        all.map((c) => credentialsWire(bc, c, known)),
      );
    },
  );

  api.post(
    `${BASE}/persistent_credentials`,
    {
      // Readers may make read-only credentials of their own; what else each bucket needs is
      // checked against the caller's grants when the buckets are known.
      config: { access: { uri: (r) => projectBlobs(placeOf(r.query, r.body)), action: 'read' } },
      schema: {
        tags: ['buckets'],
        querystring: BucketScopeQuery.partial(),
        body: PersistentCredentialsCreate.extend(BucketScopeQuery.partial().shape),
        response: { 201: PersistentCredentials, ...errorResponses },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const p = placeOf(request.query, request.body);
      const row = await createCredentials(bc, requireUser(request), await request.grants(), p, {
        name: b.name,
        bucketIds: b.bucket_ids,
        readOnly: b.read_only,
      });
      const created = (await credentialsByIdOrName(bc.db, p, row.id))!;
      // The only answer that carries the keys: shown once, to whoever made them.
      return reply.status(201).send(credentialsWire(bc, created, await bucketsIn(bc.db, p), true));
    },
  );

  api.get(
    `${BASE}/persistent_credentials/:credentials`,
    {
      config: { access: { uri: fromQuery, action: 'read' } },
      schema: {
        tags: ['buckets'],
        params: OneCredentials,
        querystring: BucketScopeQuery,
        response: { 200: PersistentCredentials, ...errorResponses },
      },
    },
    async (request) => {
      const p = placeOfQuery(request.query);
      const found = await credentialsByIdOrName(bc.db, p, request.params.credentials);
      const known = await readable(request, p);
      if (!found || !found.bucketIds.every((id) => known.some((b) => b.id === id))) {
        throw notFound(`Bucket credentials ${request.params.credentials} not found`);
      }
      return credentialsWire(bc, found, known);
    },
  );

  api.delete(
    `${BASE}/persistent_credentials/:credentials`,
    {
      // Their owner may delete them (a reader's read-only ones too); others need write.
      config: { access: { uri: fromQuery, action: 'read' } },
      schema: {
        tags: ['buckets'],
        params: OneCredentials,
        querystring: BucketScopeQuery,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const p = placeOfQuery(request.query);
      const found = await credentialsByIdOrName(bc.db, p, request.params.credentials);
      if (!found) throw notFound(`Bucket credentials ${request.params.credentials} not found`);
      const caller = requireUser(request);
      if (
        found.ownerId !== caller.id &&
        !allows(await request.grants(), fromQuery(request), 'write')
      ) {
        throw forbidden(
          'Only their owner or a writer of the project’s buckets may delete credentials',
        );
      }
      await deleteCredentials(bc.db, found.id);
      return reply.status(204).send(null);
    },
  );
}
