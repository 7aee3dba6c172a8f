import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import { COPILOT_WS_PROTOCOL, JOB_STATUS_WS_PROTOCOL } from '@orrery/contract';
import { sameOrigin } from './origin.js';

/**
 * WebSocket routes (job logs, top, exec; ingress; the copilot). The Apolo CLI offers one sub-protocol per
 * stream and expects it back; the console's `bearer.<token>` is never selected (see
 * auth/principal.ts).
 */
export const WS_PROTOCOLS = [
  'logs.apolo.us',
  'top.apolo.us',
  'v2.channels.neu.ro',
  COPILOT_WS_PROTOCOL,
  JOB_STATUS_WS_PROTOCOL,
];

/** Time an upgrade request may take to be answered or accepted (ws clears it on acceptance). */
const UPGRADE_TIMEOUT_MS = 30_000;

export async function installWebsocket(
  app: FastifyInstance,
  opts: {
    /** Upgrades that check their Origin themselves (a job's own host). */
    exempt?: (request: FastifyRequest) => boolean;
    /** The console's origin (the public URL's), also accepted behind a proxy that rewrites Host. */
    consoleOrigin?: string;
  } = {},
) {
  await app.register(fastifyWebsocket, {
    options: {
      handleProtocols: (offered: Set<string>) => WS_PROTOCOLS.find((p) => offered.has(p)) ?? false,
    },
  });
  // The console's own sockets (logs, top, exec, attach, apps' logs, the assistant) answer only
  // the console's pages and API clients. Browsers send Origin on every upgrade, and a WebSocket
  // is not bound by CORS: without this any page could open one as the user.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.ws || opts.exempt?.(request) || sameOrigin(request, true)) return;
    if (opts.consoleOrigin && request.headers.origin === opts.consoleOrigin) return;
    return reply.status(403).type('text/plain').send('WebSocket from another origin refused');
  });
  // An upgrade refused before any route runs (a malformed URL, no such route) gets its HTTP
  // answer, but nothing closes its socket afterwards: Node's HTTP parser has let go of it. Close
  // it when the client does, or when it lingers unanswered and unaccepted.
  app.server.on('upgrade', (_request, socket: Duplex & Partial<Pick<Socket, 'setTimeout'>>) => {
    socket.once('end', () => socket.destroy());
    socket.setTimeout?.(UPGRADE_TIMEOUT_MS, () => socket.destroy());
  });
}
