import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The Apolo CLI asks for lists as NDJSON; other clients get JSON. */
export const wantsNdjson = (request: FastifyRequest) =>
  (request.headers.accept ?? '').includes('application/x-ndjson');

export interface NdjsonOptions {
  /** The last line when the items fail part-way (the status is already sent by then). */
  errorLine?: (e: unknown) => object;
  /**
   * Lines go out in chunks of about this many bytes (one write per line was the cost of a big
   * listing); 0 sends each line as it comes, for progress that the reader watches live.
   */
  batch?: number;
  /** The line ending: `\n`, or `\r\n` where the wire follows Docker's progress stream. */
  eol?: string;
}

/**
 * Lines of NDJSON as a stream. It is pulled as the client reads (reply.send pipes it with
 * back-pressure), so a slow reader holds back the items instead of the server holding the text.
 */
export function ndjsonStream(
  items: Iterable<unknown> | AsyncIterable<unknown>,
  { errorLine, batch = 64 * 1024, eol = '\n' }: NdjsonOptions = {},
): Readable {
  return Readable.from(
    (async function* () {
      let chunk = '';
      try {
        for await (const item of items) {
          chunk += `${JSON.stringify(item)}${eol}`;
          if (chunk.length >= batch) {
            yield chunk;
            chunk = '';
          }
        }
        if (chunk) yield chunk;
      } catch (e) {
        if (!errorLine) throw e;
        if (chunk) yield chunk;
        yield `${JSON.stringify(errorLine(e))}${eol}`;
      }
    })(),
  );
}

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
  if (wantsNdjson(request)) return reply.type('application/x-ndjson').send(ndjsonStream(items));
  return reply.send(json(items));
}
