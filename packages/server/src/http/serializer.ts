import fastJson from 'fast-json-stringify';
import type { FastifyInstance } from 'fastify';
import { serializerCompiler as zodSerializer } from 'fastify-type-provider-zod';
import { z } from 'zod';

type SerializerCompiler = Parameters<FastifyInstance['setSerializerCompiler']>[0];

/**
 * Responses are serialized from the same zod schemas, compiled once to JSON Schema and then to a
 * fast-json-stringify function: only declared fields leave the server, at Fastify's native
 * speed. With `validate` (the test suite) every response is also checked against its schema, so
 * a handler that drifts from the contract fails its tests.
 */
export function responseSerializer(opts: { validate: boolean }): SerializerCompiler {
  return (def) => {
    const route = def as Parameters<typeof zodSerializer>[0];
    if (opts.validate) return zodSerializer(route);
    // Compiled on the route's first response: compiling every route's schema at start-up cost
    // a few hundred milliseconds of time to ready.
    let compiled: ((data: unknown) => string) | undefined;
    return (data) => {
      compiled ??= compile(route);
      return compiled(data);
    };
  };
}

function compile(route: Parameters<typeof zodSerializer>[0]): (data: unknown) => string {
  try {
    const json = z.toJSONSchema(route.schema as z.ZodType, {
      io: 'output',
      unrepresentable: 'any',
      target: 'draft-7',
    });
    return fastJson(json as Parameters<typeof fastJson>[0]);
  } catch {
    return zodSerializer(route);
  }
}
