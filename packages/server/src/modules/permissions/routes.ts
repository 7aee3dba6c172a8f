import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PermissionCheck,
  PermissionList,
  PermissionQuery,
  PermissionVerdicts,
  SharedPermission,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { authorize } from '../../http/access.js';
import { errorResponses } from '../../http/route.js';
import { principalOf } from '../../auth/principal-hook.js';
import { userVisibleTo } from '../users/service.js';
import { assertUri, permissionsOf, revoke, share, sharesBy, sharesOn } from './service.js';
import { checkAll, type Refinement } from './check.js';

/** Role names arrive with `/` replaced by `:`; users are plain names here. */
const Params = z.object({
  name: z
    .string()
    .min(1)
    .transform((n) => n.replace(/:/g, '/')),
});
const DeleteQuery = z.object({ uri: z.string().min(1) });
const SharedQuery = z.object({ uri: z.string().min(1).optional() });

/** A resource URI the caller manages, or the refusal. */
async function manageable(request: FastifyRequest, uri: string) {
  assertUri(uri);
  await authorize(request, uri, 'manage');
  return uri;
}

/**
 * `refinements`: the areas' own rules (a disk's owner, an organization's admins), handed in by
 * app.ts so that this module, below the areas, imports none of them.
 */
export const permissionRoutes =
  (ctx: AppContext, refinements: Refinement[]): FastifyPluginAsyncZod =>
  async (app) => {
    // What the console may offer: the caller's own verdicts, from the same grants and area rules
    // the routes refuse with. Nothing about other organizations leaks: a URI the caller has no
    // grant on reads the same whether it exists or not.
    app.post(
      '/api/v1/permissions/check',
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['permissions'],
          description:
            'Whether the signed-in user may do each action on each resource URI, with the reason when not; answers in the order asked.',
          body: PermissionCheck,
          response: { 200: PermissionVerdicts, ...errorResponses },
        },
      },
      async (request) => {
        request.body.forEach((p, i) => assertUri(p.uri, `${i}.uri`));
        return checkAll(requireUser(request), await request.grants(), request.body, refinements);
      },
    );

    app.get(
      '/api/v1/users/:name/permissions',
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['permissions'],
          params: Params,
          querystring: PermissionQuery,
          response: { 200: PermissionList, ...errorResponses },
        },
      },
      async (request) => {
        const user = await userVisibleTo(ctx.db, requireUser(request), request.params.name);
        return permissionsOf(ctx.db, principalOf(user), request.query.uri);
      },
    );

    app.post(
      '/api/v1/users/:name/permissions',
      {
        config: { access: 'user' },
        schema: {
          tags: ['permissions'],
          params: Params,
          body: PermissionList.min(1),
          response: { 201: PermissionList, ...errorResponses },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        request.body.forEach((p, i) => assertUri(p.uri, `${i}.uri`));
        // Only who manages a resource may share it.
        for (const p of request.body) await authorize(request, p.uri, 'manage');
        await share(ctx.db, caller, request.params.name, request.body);
        return reply.status(201).send(request.body);
      },
    );

    app.delete(
      '/api/v1/users/:name/permissions',
      {
        config: { access: 'user' },
        schema: {
          tags: ['permissions'],
          params: Params,
          querystring: DeleteQuery,
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (request, reply) => {
        assertUri(request.query.uri);
        await authorize(request, request.query.uri, 'manage');
        await revoke(ctx.db, request.params.name, request.query.uri);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/v1/users/:name/permissions/shared',
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['permissions'],
          params: Params,
          querystring: SharedQuery,
          response: { 200: z.array(SharedPermission), ...errorResponses },
        },
      },
      async (request) => {
        const user = await userVisibleTo(ctx.db, requireUser(request), request.params.name);
        const { uri } = request.query;
        // Without a resource, or with a scheme alone (`image:`), the official CLI's
        // `acl ls --shared` asks what the user shared.
        const scheme = uri === undefined ? '' : /^([a-z][a-z0-9+.-]*):(?:\/\/)?$/.exec(uri)?.[1];
        const rows =
          scheme !== undefined
            ? await sharesBy(ctx.db, user.id, scheme || undefined)
            : await sharesOn(ctx.db, await manageable(request, uri!));
        return rows.map((r) => ({
          user: r.user,
          uri: r.uri,
          action: r.action as 'read' | 'write' | 'manage',
        }));
      },
    );
  };
