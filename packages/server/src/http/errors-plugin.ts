import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from './errors.js';

/**
 * A PostgreSQL data exception (SQLSTATE class 22: a number out of range, text it cannot store,
 * a bad date) from bad input; drizzle wraps the driver's error as the `cause`.
 */
function isDataException(err: unknown): boolean {
  for (let e = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return true;
  }
  return false;
}

/** The User-Agent of Apolo's Python SDK, which every official Apolo client speaks through. */
const APOLO_SDK = /^ApoloCLI\//;

/** Maps every failure onto `{error, message, errors?}` with the right status. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | HttpError, request, reply) => {
    // A route may have set another type (a static file) before failing: the error body is JSON.
    reply.type('application/json; charset=utf-8');
    if (err instanceof HttpError) return reply.status(err.status).send(err.body());
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors = err.validation.map((v) => ({
        path:
          String(v.instancePath ?? '')
            .replace(/^\//, '')
            .replace(/\//g, '.') ||
          String((v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') ?? ''),
        message: v.message ?? 'Invalid value',
      }));
      return reply
        .status(400)
        .send({ error: 'validation', message: errors[0]?.message ?? 'Invalid request', errors });
    }
    if (isDataException(err)) {
      // The last line only: every input is bounded where it enters, so this is a missing bound.
      request.log.warn({ err }, 'the database refused a value');
      return reply.status(400).send({
        error: 'bad_request',
        message: 'A value is out of range or not valid (the database refused it)',
      });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return reply
        .status(429)
        .send({ error: 'rate_limited', message: 'Too many attempts, try again later' });
    }
    if (status >= 500) {
      request.log.error({ err }, 'request failed');
      return reply.status(status).send({ error: 'internal', message: 'Internal server error' });
    }
    const code =
      status === 401
        ? 'unauthorized'
        : status === 403
          ? 'forbidden'
          : status === 404
            ? 'not_found'
            : 'bad_request';
    return reply.status(status).send({ error: code, message: err.message });
  });
  // Apolo's SDK (the `apolo` CLI, `apolo-flow`) prints a failure's `error` as its reason, where
  // Apolo's services put the message: for it the message goes there, the code under `code`, so
  // that its user reads why ("The process runtime cannot save a job's image"), not "bad_request".
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
    if (!APOLO_SDK.test(request.headers['user-agent'] ?? '')) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    const b = body as { error?: unknown; message?: unknown };
    if (typeof b?.error !== 'string' || typeof b.message !== 'string') return payload;
    return JSON.stringify({ ...b, error: b.message, code: b.error });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      error: 'not_found',
      message: `No route ${request.method} ${request.url.split('?')[0]}`,
    }),
  );
}
