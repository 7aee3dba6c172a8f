import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FLOW_API, formatUri, type Action } from '@orrery/contract';
import { allows } from '../../auth/permissions.js';
import { authorized } from '../../http/access.js';
import { conflict } from '../../http/errors.js';
import { sendList } from '../../http/ndjson.js';
import { errorResponses } from '../../http/route.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Db } from '../../db/client.js';
import { bakeWithProject, placeOfProject, projectById } from './service.js';
import type { FlowPlace, FlowProjectRow } from './store.js';

/**
 * What every flow route shares: the permission check on the flow a request names (directly or
 * through its bake, attempt or task), the query types of the wire, and 409 on a clash.
 */

/** `flow://CLUSTER/ORG/PROJECT`; a flow outside any organization has the segment `-`. */
export const flowUri = (p: FlowPlace) => formatUri('flow', p.cluster, p.org || '-', p.project);

/**
 * The row a request names, once the caller may `action` on its flow. A row that does not exist
 * and one of a flow the caller cannot read are the same 404, so existence does not leak; a flow
 * the caller reads but may not change is 403.
 */
export async function checked<T extends { project: FlowProjectRow }>(
  request: FastifyRequest,
  row: T | undefined,
  action: Action,
  what: string,
): Promise<T> {
  return authorized(
    request,
    row,
    (r) => flowUri(placeOfProject(r.project)),
    action,
    `${what} not found`,
  );
}

/** The bake a request names (with its flow), once the caller may `action` on its flow. */
export const checkedBake = async (db: Db, request: FastifyRequest, id: string, action: Action) =>
  checked(request, await bakeWithProject(db, id), action, `Bake ${id}`);

/** The flow of an id, in the shape `checked` takes. */
export async function flowOf(db: Db, id: string) {
  const project = await projectById(db, id);
  return project && { project };
}

/** Lists of a flow the caller cannot read (or that does not exist) are empty, never 404. */
export async function readable(request: FastifyRequest, project: FlowProjectRow | undefined) {
  return !!project && allows(await request.grants(), flowUri(placeOfProject(project)), 'read');
}

/**
 * The rows under a flow, listed as the wire sends them: `list` runs once the caller may read the
 * flow; a flow that does not exist or that they cannot read lists nothing.
 */
export async function sendReadable<R, W>(
  request: FastifyRequest,
  reply: FastifyReply,
  project: FlowProjectRow | undefined,
  list: () => Promise<R[]>,
  wire: (r: R) => W,
) {
  return sendItems(request, reply, (await readable(request, project)) ? await list() : [], wire);
}

/**
 * `GET {FLOW_API}/{what}?bake_id=`: the rows of one bake (its attempts, its images), for those
 * who read its flow; an empty list for the rest, as for a bake that does not exist.
 */
export function bakeListRoute<R, W>(
  app: FastifyInstance,
  db: Db,
  what: string,
  item: z.ZodType<W>,
  rowsOf: (db: Db, bakeId: string) => Promise<R[]>,
  wire: (r: R) => W,
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    `${FLOW_API}/${what}`,
    {
      config: { access: 'user-or-token' },
      schema: {
        tags: ['flows'],
        querystring: z.object({ bake_id: key }),
        response: { 200: z.array(item), ...errorResponses },
      },
    },
    async (request, reply) => {
      const found = await bakeWithProject(db, request.query.bake_id);
      return sendReadable(
        request,
        reply,
        found?.project,
        () => rowsOf(db, request.query.bake_id),
        wire,
      );
    },
  );
}

/** A list as the wire sends it: NDJSON when asked (an empty list is an empty body), else JSON. */
export const sendItems = <R, W>(
  request: FastifyRequest,
  reply: FastifyReply,
  rows: R[],
  wire: (r: R) => W,
) => sendList(request, reply, rows.map(wire));

/** An insert a unique index may refuse: the clash is the wire's 409. */
export async function unlessTaken<T>(insert: () => Promise<T>, message: string): Promise<T> {
  try {
    return await insert();
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(message);
    throw e;
  }
}

// ---- query and body types ----

/** The Python client sends `1`, `true` or `True`. */
export const flag = z
  .enum(['1', '0', 'true', 'false', 'True', 'False'])
  .transform((v) => v === '1' || v.toLowerCase() === 'true');

/** A query key the client may repeat (`tags=a&tags=b`). */
export const many = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item));

/** An id or key that a query names: bounded, so a huge one is a 400 and not a long lookup. */
export const key = z.string().min(1).max(1024);

/**
 * A text that a unique index holds: bounded in bytes, because PostgreSQL refuses an index row
 * over about 2.7 kB whatever its characters (a 500 where the schema counted characters).
 */
export const indexed = (maxBytes: number, minLength = 1) =>
  z
    .string()
    .min(minLength)
    .refine((s) => Buffer.byteLength(s) <= maxBytes, `Must be at most ${maxBytes} bytes`);

/** A time of the wire: ISO 8601 (with or without an offset: Python's naive times are UTC). */
export const wireDate = z
  .string()
  .max(64)
  .transform((s, ctx) => {
    const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s}Z`);
    if (Number.isNaN(d.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'Must be an ISO 8601 date and time' });
      return z.NEVER;
    }
    return d;
  });

export const Id = z.object({ id: key });
export const Empty = z.null();
