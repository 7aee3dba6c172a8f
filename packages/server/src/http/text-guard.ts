import { Stream } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid } from './errors.js';

/**
 * Where a text the database cannot store is found in a request, or null. PostgreSQL refuses NUL
 * in `text` and `jsonb` (a 500 on about 25 routes once), and a lone UTF-16 surrogate has no UTF-8
 * form: both are refused here, at the boundary, for params, query and parsed bodies alike, keys
 * included. The walk is iterative: a body nested a million levels deep cannot overflow the stack.
 */
export function badTextIn(value: unknown, root: string): { path: string; reason: string } | null {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const reason = badText(v);
      if (reason) return { path, reason };
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, `${path}.${i}`]));
    } else if (v && typeof v === 'object' && !ArrayBuffer.isView(v) && !(v instanceof Stream)) {
      for (const [k, item] of Object.entries(v)) {
        const reason = badText(k);
        if (reason) return { path, reason: `${reason} in a key` };
        stack.push([item, `${path}.${k}`]);
      }
    }
  }
  return null;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function badText(s: string) {
  if (s.includes('\0')) return 'contains a NUL character';
  if (LONE_SURROGATE.test(s)) return 'is not valid Unicode';
  return null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks its wildcard path itself, with its own error body (storage, objects). */
    checksOwnPath?: boolean;
  }
}

const PARTS = [
  ['params', (r: FastifyRequest) => paramsOf(r)],
  ['query', (r: FastifyRequest) => r.query],
  ['body', (r: FastifyRequest) => r.body],
] as const;

const paramsOf = (r: FastifyRequest) => {
  if (!r.routeOptions.config.checksOwnPath && !proxied(r)) return r.params;
  const { '*': _own, ...others } = r.params as Record<string, string>;
  return others;
};

/**
 * A job's ingress: its path, query and body are the job's business, its id is ours. Requests for
 * a job's own host arrive on the route `/.orrery-ingress-host` (modules/jobs/ingress-host.ts).
 */
const proxied = (r: FastifyRequest) =>
  r.routeOptions.url === '/.orrery-ingress-host' ||
  (r.routeOptions.url?.startsWith('/ingress/') ?? false);

/**
 * Refuses bad text with a 400 naming the field (`query.org_name`), before validation and before
 * any handler.
 */
export function installTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    for (const [part, of] of PARTS) {
      if (part !== 'params' && proxied(request)) continue;
      const bad = badTextIn(of(request), part);
      if (bad) throw invalid(bad.path, `${bad.path} ${bad.reason}`);
    }
  });
}
