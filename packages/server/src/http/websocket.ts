import type { FastifyInstance } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';

/**
 * WebSocket routes (job logs, top, exec; ingress). The Apolo CLI offers one sub-protocol per
 * stream and expects it back; the console's `bearer.<token>` is never selected (see
 * auth/principal.ts).
 */
export const WS_PROTOCOLS = ['logs.apolo.us', 'top.apolo.us', 'v2.channels.neu.ro'];

export async function installWebsocket(app: FastifyInstance) {
  await app.register(fastifyWebsocket, {
    options: {
      handleProtocols: (offered: Set<string>) => WS_PROTOCOLS.find((p) => offered.has(p)) ?? false,
    },
  });
}
