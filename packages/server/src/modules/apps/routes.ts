import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APPS_V2,
  AppConfigure,
  AppEvent,
  AppInstall,
  AppInstance,
  AppListQuery,
  AppPageQuery,
  AppRevision,
  AppRollback,
  AppUninstallQuery,
  AppValue,
  AppValuesQuery,
  ErrorBody,
  TemplateScopeParams,
  projectUri,
  type Action,
  DEFAULT_CLUSTER,
} from '@orrery/contract';
import { requireUser } from '../../auth/principal.js';
import { authorized } from '../../http/access.js';
import { notFound, validationOf } from '../../http/errors.js';
import { InputErrors } from './errors.js';
import type { AppsService } from './service.js';
import type { InstanceRow, Place } from './store.js';
import { APPS_V1, instanceProject, projectRead, scopeUri } from './routes-templates.js';
import { valuesOf } from './values.js';
import { eventWire, instancesWire, revisionWire } from './wire.js';

const INSTANCES = `${APPS_V1}/instances`;
const OneParams = TemplateScopeParams.extend({ id: z.string().min(1) });
const RevParams = OneParams.extend({ n: z.coerce.number().int().min(1) });
const IoParams = OneParams.extend({ kind: z.enum(['input', 'output']) });
/** `restore_ref=true`: the input as given, integration references kept (export, configure). */
const IoQuery = z.object({ restore_ref: z.enum(['true', 'false']).optional() });
const RevIoParams = RevParams.extend({ kind: z.enum(['input', 'output']) });

/** Input errors carry paths as string arrays (errors.ts), so 400 is not the shared ErrorBody. */
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const pagedOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), pages: z.number().int() });
const pages = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/** A JSON object of any shape (inputs and outputs). */
const Json = z.record(z.string(), z.unknown());

/** Instances of the apps API. */
export const appRoutes =
  (apps: AppsService): FastifyPluginAsyncZod =>
  async (app) => {
    const callerOf = async (request: FastifyRequest) => ({
      principal: requireUser(request),
      grants: await request.grants(),
    });
    const one = async (row: InstanceRow) => (await instancesWire(apps, [row]))[0]!;

    /**
     * The instance a path names if the caller may `action` its project; 404 for another
     * project's (or another organization's) instance, as for one that does not exist.
     */
    const instanceFor = async (
      request: FastifyRequest,
      id: string,
      action: Action,
      scope?: Place,
    ) => {
      const row = await apps.instance(id);
      const inScope =
        row &&
        (!scope ||
          (row.clusterName === scope.cluster &&
            row.orgName === scope.org &&
            row.projectName === scope.project));
      return authorized(
        request,
        inScope ? row : null,
        instanceProject,
        action,
        `App instance ${id} not found`,
      );
    };
    const scopeOf = (p: { cluster: string; org: string; project: string }): Place => p;
    const write = { access: { uri: scopeUri, action: 'write' as const } };

    app.post(
      INSTANCES,
      {
        config: write,
        schema: {
          tags: ['apps'],
          params: TemplateScopeParams,
          body: z.unknown(),
          response: {
            201: AppInstance.extend({ outputParams: z.object({ jobId: z.string().nullable() }) }),
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const parsed = AppInstall.safeParse(request.body);
        if (!parsed.success) {
          throw new InputErrors(
            validationOf(parsed.error).errors!.map((e) => ({
              path: e.path ? e.path.split('.') : [],
              message: e.message,
            })),
          );
        }
        const { row, jobIds } = await apps.install(
          await callerOf(request),
          scopeOf(request.params),
          parsed.data,
        );
        // The console reads `outputParams.jobId`, the CLI the App object: one answer serves both.
        return reply
          .status(201)
          .send({ ...(await one(row)), outputParams: { jobId: jobIds[0] ?? null } });
      },
    );

    app.get(
      INSTANCES,
      {
        config: projectRead,
        schema: {
          tags: ['apps'],
          params: TemplateScopeParams,
          querystring: AppListQuery.omit({ cluster: true, org: true, project: true }),
          response: { 200: pagedOf(AppInstance), ...errors },
        },
      },
      async (request) => {
        const q = request.query;
        const states = q.states.length ? q.states : undefined;
        const visible =
          states ??
          (['queued', 'progressing', 'healthy', 'degraded', 'errored', 'uninstalling'] as const);
        const { rows, total } = await apps.instances(scopeOf(request.params), {
          states: [...visible],
          page: q.page,
          size: q.size,
        });
        return { items: await instancesWire(apps, rows), total, pages: pages(total, q.size) };
      },
    );

    app.get(
      `${INSTANCES}/values`,
      {
        config: projectRead,
        schema: {
          tags: ['apps'],
          params: TemplateScopeParams,
          querystring: AppValuesQuery,
          response: { 200: pagedOf(AppValue), ...errors },
        },
      },
      async (request) => {
        const q = request.query;
        const { rows } = await apps.instances(scopeOf(request.params), {
          states: ['queued', 'progressing', 'healthy', 'degraded', 'errored'],
          page: 1,
          size: 500,
        });
        const all = (await Promise.all(rows.map((r) => valuesOf(apps, r, q.type)))).flat();
        const items = all.slice((q.page - 1) * q.size, q.page * q.size);
        return { items, total: all.length, pages: pages(all.length, q.size) };
      },
    );

    app.get(
      `${INSTANCES}/:id`,
      {
        config: projectRead,
        schema: { tags: ['apps'], params: OneParams, response: { 200: AppInstance, ...errors } },
      },
      async (request) =>
        one(await instanceFor(request, request.params.id, 'read', scopeOf(request.params))),
    );

    app.put(
      `${INSTANCES}/:id`,
      {
        config: write,
        schema: {
          tags: ['apps'],
          params: OneParams,
          body: z.unknown(),
          response: { 200: AppInstance, ...errors },
        },
      },
      async (request) => {
        const row = await instanceFor(request, request.params.id, 'write', scopeOf(request.params));
        const parsed = AppConfigure.safeParse(request.body);
        if (!parsed.success) throw validationOf(parsed.error);
        return one(await apps.configure(await callerOf(request), row, parsed.data));
      },
    );

    app.delete(
      `${INSTANCES}/:id`,
      {
        config: write,
        schema: {
          tags: ['apps'],
          params: OneParams,
          querystring: AppUninstallQuery,
          response: { 200: AppInstance, ...errors },
        },
      },
      async (request) => {
        const row = await instanceFor(request, request.params.id, 'write', scopeOf(request.params));
        return one(await apps.uninstall(row, request.query.force));
      },
    );

    app.get(
      `${INSTANCES}/:id/:kind`,
      {
        config: projectRead,
        schema: {
          tags: ['apps'],
          params: IoParams,
          querystring: IoQuery,
          response: { 200: Json, ...errors },
        },
      },
      async (request) => {
        const row = await instanceFor(request, request.params.id, 'read', scopeOf(request.params));
        if (request.params.kind === 'output') return apps.outputs(row);
        const rev = (await apps.revision(row.id, row.revision))!;
        return request.query.restore_ref === 'true' ? rev.input : rev.resolved;
      },
    );

    app.get(
      `${INSTANCES}/:id/values`,
      {
        config: projectRead,
        schema: {
          tags: ['apps'],
          params: OneParams,
          querystring: AppValuesQuery,
          response: { 200: pagedOf(AppValue), ...errors },
        },
      },
      async (request) => {
        const row = await instanceFor(request, request.params.id, 'read', scopeOf(request.params));
        const q = request.query;
        const all = await valuesOf(apps, row, q.type);
        const items = all.slice((q.page - 1) * q.size, q.page * q.size);
        return { items, total: all.length, pages: pages(all.length, q.size) };
      },
    );

    app.get(
      `${INSTANCES}/:id/events`,
      {
        config: projectRead,
        schema: {
          tags: ['apps'],
          params: OneParams,
          querystring: AppPageQuery,
          response: { 200: pagedOf(AppEvent), ...errors },
        },
      },
      async (request) => {
        const row = await instanceFor(request, request.params.id, 'read', scopeOf(request.params));
        const { page, size } = request.query;
        const { rows, total } = await apps.events(row.id, page, size);
        return { items: rows.map(eventWire), total, pages: pages(total, size) };
      },
    );

    app.get(
      `${INSTANCES}/:id/revisions`,
      {
        config: projectRead,
        schema: {
          tags: ['apps'],
          params: OneParams,
          response: { 200: z.array(AppRevision), ...errors },
        },
      },
      async (request) => {
        const row = await instanceFor(request, request.params.id, 'read', scopeOf(request.params));
        return (await apps.revisions(row.id)).map(revisionWire);
      },
    );

    app.get(
      `${INSTANCES}/:id/revisions/:n/:kind`,
      {
        config: projectRead,
        schema: {
          tags: ['apps'],
          params: RevIoParams,
          querystring: IoQuery,
          response: { 200: Json, ...errors },
        },
      },
      async (request) => {
        const { id, n, kind } = request.params;
        const row = await instanceFor(request, id, 'read', scopeOf(request.params));
        const rev = await apps.revision(row.id, n);
        if (!rev) throw notFound(`No revision ${n} of this app`);
        if (kind === 'output') return apps.outputs(row, n);
        return request.query.restore_ref === 'true' ? rev.input : rev.resolved;
      },
    );

    app.post(
      `${INSTANCES}/:id/revisions/:n/rollback`,
      {
        config: write,
        schema: {
          tags: ['apps'],
          params: RevParams,
          body: AppRollback.optional(),
          response: { 200: AppInstance, ...errors },
        },
      },
      async (request) => {
        const { id, n } = request.params;
        const row = await instanceFor(request, id, 'write', scopeOf(request.params));
        const comment = request.body?.comment ?? null;
        return one(await apps.rollback(await callerOf(request), row, n, comment));
      },
    );

    // ---- v2: the CLI lists and reads instances here, with the place in the query ----

    const queryUri = (r: FastifyRequest) => {
      const q = r.query as Record<string, unknown>;
      const s = (v: unknown) => (typeof v === 'string' && v && !v.includes('/') ? v : '-');
      return projectUri(s(q.cluster ?? DEFAULT_CLUSTER), s(q.org), s(q.project));
    };

    app.get(
      `${APPS_V2}/instances`,
      {
        config: { access: { uri: queryUri, action: 'read' } },
        schema: {
          tags: ['apps'],
          querystring: AppListQuery,
          response: { 200: pagedOf(AppInstance), ...errors },
        },
      },
      async (request) => {
        const q = request.query;
        const place = { cluster: q.cluster ?? DEFAULT_CLUSTER, org: q.org!, project: q.project! };
        const { rows, total } = await apps.instances(place, {
          states: q.states.length ? q.states : undefined,
          page: q.page,
          size: q.size,
        });
        return { items: await instancesWire(apps, rows), total, pages: pages(total, q.size) };
      },
    );

    const V2One = z.object({ id: z.string().min(1) });
    app.get(
      `${APPS_V2}/instances/:id`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['apps'], params: V2One, response: { 200: AppInstance, ...errors } },
      },
      async (request) => one(await instanceFor(request, request.params.id, 'read')),
    );

    app.get(
      `${APPS_V2}/instances/:id/revisions`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['apps'],
          params: V2One,
          response: { 200: z.array(AppRevision), ...errors },
        },
      },
      async (request) => {
        const row = await instanceFor(request, request.params.id, 'read');
        return (await apps.revisions(row.id)).map(revisionWire);
      },
    );
  };
