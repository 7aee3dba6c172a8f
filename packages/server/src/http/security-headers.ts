import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/** The console page the identity provider's silent answer lands on, inside the console's frame. */
export const SILENT_CALLBACK_PATH = '/auth/callback';

/** Origins as CSP sources: http(s) as they are, plus the WebSocket twin for live streams. */
function withSockets(origin: string): string[] {
  const url = new URL(origin);
  const ws = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return [url.origin, `${ws}//${url.host}`];
}

/**
 * The Content-Security-Policy of the console's pages. Only the console's own files run
 * ('self': the built bundle has no inline script); Mantine sets inline styles. The console
 * talks to its own origin, the public URL (a white-label host's console calls the main host's
 * API and sockets) and the identity provider, and frames nothing but the provider's silent
 * sign-in. No other site may frame it; the sign-in callback page only the console itself, as it
 * is the frame of that silent sign-in.
 */
export function consoleCsp(config: Config, path: string, provider: string[] = []): string {
  const endpoints = provider.filter((u) => URL.canParse(u)).map((u) => new URL(u).origin);
  const issuer = [new URL(config.oidc.issuer).origin, ...endpoints];
  const connect = [...new Set(["'self'", ...withSockets(config.publicUrl), ...issuer])];
  const frames = [...new Set(["'self'", ...issuer])];
  const framedBySelf = path === SILENT_CALLBACK_PATH;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    // Logos are any URL the operator configures; previews and downloads use blob: and data:.
    'img-src * data: blob:',
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    `frame-src ${frames.join(' ')}`,
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `frame-ancestors ${framedBySelf ? "'self'" : "'none'"}`,
  ].join('; ');
}

/**
 * Headers of a console page (index.html for every console route). `provider` lists the identity
 * provider's endpoints the console calls (an external issuer's token endpoint may live elsewhere).
 */
export function consolePageHeaders(
  config: Config,
  path: string,
  provider: string[] = [],
): Record<string, string> {
  return {
    'content-security-policy': consoleCsp(config, path, provider),
    'x-frame-options': path === SILENT_CALLBACK_PATH ? 'SAMEORIGIN' : 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}

/**
 * Every answer of the server itself (API, files, the console's assets) forbids MIME sniffing, so
 * that a text or JSON answer (a file's content, a job's log) is never run as a script or page.
 * The ingress passes a job's own answers through as the job sends them (its routes say
 * `jobAnswers`).
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route passes a job's own answers through (the ingress): no headers of the server's. */
    jobAnswers?: boolean;
  }
}

export function installSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.routeOptions.config?.jobAnswers) {
      reply.header('x-content-type-options', 'nosniff');
      if (!reply.hasHeader('referrer-policy')) {
        reply.header('referrer-policy', 'strict-origin-when-cross-origin');
      }
    }
    return payload;
  });
}
