import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Secret, SecretCreate, SecretScope, SecretWithValue } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { errorResponses } from '../../http/route.js';
import { loadSecretsKey } from './key.js';
import {
  createSecret,
  listSecrets,
  placeOf,
  placeUri,
  readSecret,
  removeSecret,
  secretWire,
  type WireScope,
} from './service.js';

const OneKey = z.object({ key: z.string().min(1) });
/** Base64 of 1 MiB is about 1.4 MB, above Fastify's default body limit of 1 MiB. */
const CREATE_BODY_LIMIT = 2 * 1024 * 1024;

const queryPlace = (r: FastifyRequest) => placeOf(r.query as WireScope);
const keyOf = (r: FastifyRequest) => (r.params as { key: string }).key;

/**
 * Secrets of a project on the public secrets wire. Project readers list keys and
 * read values; project managers create and delete. Values are sealed at rest and
 * never listed or logged.
 */
export const secretRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const sealKey = loadSecretsKey({
      configured: ctx.config.secretsKey,
      dataDir: ctx.config.dataDir,
    });

    app.get(
      '/api/v1/secrets',
      {
        config: { access: { uri: (r) => placeUri(queryPlace(r)), action: 'read' } },
        schema: {
          tags: ['secrets'],
          querystring: SecretScope,
          response: { 200: z.array(Secret), ...errorResponses },
        },
      },
      async (request) => {
        const place = placeOf(request.query);
        // Shared by every reader of the project until a secret of any project changes.
        const rows = await (
          await request.accessSnapshot()
        ).cached('secrets', placeUri(place), () => listSecrets(ctx.db, place));
        return rows.map((row) => secretWire(place, row));
      },
    );

    app.post(
      '/api/v1/secrets',
      {
        bodyLimit: CREATE_BODY_LIMIT,
        config: {
          access: { uri: (r) => placeUri(placeOf(r.body as WireScope)), action: 'manage' },
        },
        schema: {
          tags: ['secrets'],
          body: SecretCreate,
          response: { 201: Secret, ...errorResponses },
        },
      },
      async (request, reply) => {
        const b = request.body;
        const created = await createSecret(ctx.db, sealKey, placeOf(b), requireUser(request), {
          key: b.key,
          valueBase64: b.value,
        });
        return reply.status(201).send(created);
      },
    );

    app.get(
      '/api/v1/secrets/:key',
      {
        config: { access: { uri: (r) => placeUri(queryPlace(r), keyOf(r)), action: 'read' } },
        schema: {
          tags: ['secrets'],
          params: OneKey,
          querystring: SecretScope,
          response: { 200: SecretWithValue, ...errorResponses },
        },
      },
      async (request) => readSecret(ctx.db, sealKey, placeOf(request.query), request.params.key),
    );

    app.delete(
      '/api/v1/secrets/:key',
      {
        config: { access: { uri: (r) => placeUri(queryPlace(r), keyOf(r)), action: 'manage' } },
        schema: {
          tags: ['secrets'],
          params: OneKey,
          querystring: SecretScope,
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (request, reply) => {
        await removeSecret(ctx.db, placeOf(request.query), request.params.key);
        return reply.status(204).send(null);
      },
    );
  };
