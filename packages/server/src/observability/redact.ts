import type { FastifyRequest } from 'fastify';

const SECRET_PARAM = /token|ticket|code|hint|secret|password|verifier|state|nonce/i;

/** A URL with the values of credential-like query parameters replaced, for logs. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (SECRET_PARAM.test(key)) params.set(key, '[redacted]');
  return `${url.slice(0, q)}?${params.toString()}`;
}

/** pino serializer of requests: no tokens, codes or hints from query strings in the log. */
export const requestSerializer = (req: FastifyRequest) => ({
  method: req.method,
  url: redactUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
});
