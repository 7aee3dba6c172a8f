import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Action } from '@orrery/contract';
import { allows, isServiceAccountName, type Grant } from '../auth/permissions.js';
import { requireUser, type Principal } from '../auth/principal.js';
import { forbidden, notFound } from './errors.js';

/**
 * What a route needs, declared on the route itself (`config.access`):
 * - `public`: anyone, signed in or not;
 * - `user`: any signed-in person (the handler narrows further with `authorize`); a project
 *   token is refused (403), so a new route is closed to tokens unless it says otherwise;
 * - `user-or-token`: any signed-in caller, a project token included: the handler must
 *   `authorize` on the resources it touches, where a token's grants stop at its project;
 * - `system`: a user with a system role (the admin area); anyone else gets 403, since the admin
 *   area's existence is no secret;
 * - `{ uri, action }`: the action on the resource URI computed from the request; with
 *   `people: true` a project token is refused even where its role would allow the action.
 */
export type Access =
  | 'public'
  | 'user'
  | 'user-or-token'
  | 'system'
  | { uri: (request: FastifyRequest) => string; action: Action; people?: true };

export const TOKEN_REFUSED =
  'A project token acts only in its own project: this needs a person signed in';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    grants(): Promise<Grant[]>;
  }
}

/**
 * The one authorization function. Anonymous → 401; nothing at all on the resource (another
 * organization's, or one that does not exist) → 404, so existence does not leak; too weak → 403.
 */
export async function authorize(
  request: FastifyRequest,
  uri: string,
  action: Action,
  /** The 404 a missing resource gets, so that one the caller may not see reads the same. */
  missing?: string,
) {
  requireUser(request);
  const grants = await request.grants();
  if (!allows(grants, uri, 'read')) throw notFound(missing);
  if (!allows(grants, uri, action)) throw forbidden();
}

/**
 * The resource a request names, once the caller may `action` it: one that does not exist and one
 * the caller may not read are the same 404 (`missing`), so existence does not leak. Every area
 * finds its row, then authorizes here.
 */
export async function authorized<T>(
  request: FastifyRequest,
  row: T | null | undefined,
  uriOf: (row: T) => string,
  action: Action,
  missing: string,
): Promise<T> {
  if (!row) throw notFound(missing);
  await authorize(request, uriOf(row), action, missing);
  return row;
}

/** Whether the caller is a project token's service account (memberships cached per epoch). */
export async function isServiceAccount(request: FastifyRequest, principal: Principal) {
  if (!isServiceAccountName(principal.username)) return false;
  return !!(await (await request.accessSnapshot()).memberships(principal)).serviceAccount;
}

/** Routes of the API that were registered, with their access, for the tests to enumerate. */
export const routeAccess = new Map<string, Access>();

export function installAccess(app: FastifyInstance) {
  app.decorateRequest('grants', async function (this: FastifyRequest) {
    const principal = this.principal;
    return principal ? (await this.accessSnapshot()).grants(principal) : [];
  });
  app.addHook('onRoute', (route) => {
    if (!/^\/(api|apis)\//.test(route.url) || route.url.startsWith('/api/docs')) return;
    const access = (route.config as { access?: Access } | undefined)?.access;
    if (!access) throw new Error(`Route ${route.method} ${route.url} declares no access`);
    for (const m of [route.method].flat())
      if (m !== 'HEAD') routeAccess.set(`${m} ${route.url}`, access);
  });
  // Who the caller is needs no input: anonymous callers and non-admins on the admin area are
  // refused before anything they sent is read.
  app.addHook('preValidation', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public') return;
    const principal = requireUser(request);
    // A service account's user (a project token) has no account of its own to act on: no
    // organizations, profile, invitations, payments or tokens (docs/tokens.md).
    const people =
      access === 'user' || access === 'system' || (typeof access === 'object' && access.people);
    if (people && (await isServiceAccount(request, principal))) throw forbidden(TOKEN_REFUSED);
    if (access === 'system' && principal.systemRole !== 'admin') throw forbidden();
  });
  // A resource URI is computed from the request, so only from validated input: a check that
  // read raw params or bodies answered 500 for a non-string name. Validation messages depend on
  // the input alone, never on what exists, so validating first leaks nothing (docs/permissions.md).
  app.addHook('preHandler', async (request) => {
    const access = request.routeOptions.config.access;
    if (typeof access === 'object') await authorize(request, access.uri(request), access.action);
  });
}
