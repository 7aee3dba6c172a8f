import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from './errors.js';

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
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      error: 'not_found',
      message: `No route ${request.method} ${request.url.split('?')[0]}`,
    }),
  );
}
