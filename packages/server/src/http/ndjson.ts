import type { FastifyReply, FastifyRequest } from 'fastify';

/** The Apolo CLI asks for lists as NDJSON; other clients get JSON. */
export const wantsNdjson = (request: FastifyRequest) =>
  (request.headers.accept ?? '').includes('application/x-ndjson');

/**
 * A list as NDJSON (one object per line) when the caller asks for it, else as JSON: the array
 * itself, or wrapped by `json` where the wire has an envelope (`{"jobs": […]}`).
 */
export function sendList<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  items: T[],
  json: (items: T[]) => unknown = (i) => i,
) {
  if (wantsNdjson(request)) {
    return reply
      .type('application/x-ndjson')
      .send(items.map((i) => `${JSON.stringify(i)}\n`).join(''));
  }
  return reply.send(json(items));
}
