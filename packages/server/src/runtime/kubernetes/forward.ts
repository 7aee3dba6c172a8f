import { createServer, type Server, type Socket } from 'node:net';
import { PortForward } from '@kubernetes/client-node';
import type { KubeClient } from './client.js';

/**
 * A server outside the cluster reaches a job's HTTP port through the API server's port-forward:
 * one listener on 127.0.0.1 per job, each connection its own forward (a WebSocket) to the Pod.
 */
export class PortForwards {
  private readonly servers = new Map<string, Promise<Server>>();

  constructor(private readonly k: KubeClient) {}

  /** The local address of job `id`'s forward to `port` of its Pod, opened on first use. */
  async open(id: string, pod: string, port: number): Promise<{ host: string; port: number }> {
    let server = this.servers.get(id);
    if (!server) {
      server = this.listen(pod, port);
      this.servers.set(id, server);
    }
    const address = (await server).address() as { port: number };
    return { host: '127.0.0.1', port: address.port };
  }

  private listen(pod: string, port: number): Promise<Server> {
    const forward = new PortForward(this.k.config);
    const server = createServer((socket: Socket) => {
      forward
        .portForward(this.k.namespace, pod, [port], socket, null, socket)
        .then((ws) => {
          const close = () => (ws as unknown as { close(): void }).close();
          socket.on('close', close);
          socket.on('error', close);
        })
        .catch(() => socket.destroy());
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
  }

  async close(id: string): Promise<void> {
    const server = this.servers.get(id);
    this.servers.delete(id);
    if (server) (await server).close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.servers.keys()].map((id) => this.close(id)));
  }
}
