import { readFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { allowRelay } from './network.js';

/** What the relay needs to know of a live job (the process driver's record). */
export interface RelayedJob {
  uid?: number;
  /** `cluster/org/project`: only jobs of the same one are let through. */
  project?: string;
  /** The host port (127.0.0.1) forwarded to the job's own port. */
  port?: number;
  relayPort?: number;
}

/**
 * Jobs reach each other's declared ports through the server: one TCP listener per such job on
 * the host's address (`relayAddress`), which the firewall opens to job uids (network.ts
 * `allowRelay`) and nothing else of the host. A job's connection arrives from its network
 * helper's host-side socket, which runs as the job's uid: the host's sockets table names that
 * uid, the uid names the job, and only a job of the same project is piped on to the target's
 * forward; anything else is reset.
 */
export class Relays {
  private readonly servers = new Map<string, Server>();

  constructor(
    readonly address: string,
    /** The jobs holding resources now (starting or running), by id. */
    private readonly live: () => Promise<[string, RelayedJob][]>,
  ) {}

  /** The port of job `id`'s relay, while it is open. */
  portOf(id: string): number | undefined {
    return (this.servers.get(id)?.address() as { port: number } | null)?.port;
  }

  /** The relays of the jobs a previous server left running, on their recorded ports. */
  async reopen() {
    for (const [id, r] of await this.live()) {
      if (r.relayPort) await this.open(id, r.relayPort).catch(() => undefined);
    }
  }

  /** Opens (or reopens, after a server restart, on `port`) the relay of job `id`; its port. */
  async open(id: string, port = 0): Promise<number> {
    await this.close(id);
    const server = createServer({ pauseOnConnect: true }, (s) => {
      this.admit(id, s).catch(() => s.resetAndDestroy());
    });
    server.on('error', () => undefined);
    const listen = (p: number) =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(p, this.address, () => {
          server.off('error', reject);
          resolve((server.address() as { port: number }).port);
        });
      });
    // The recorded port is taken by now: another is better than none.
    const bound = await listen(port).catch((e) => (port ? listen(0) : Promise.reject(e)));
    this.servers.set(id, server);
    await allowRelay(this.address, [bound], true);
    return bound;
  }

  async close(id: string): Promise<void> {
    const server = this.servers.get(id);
    if (!server) return;
    const port = this.portOf(id);
    this.servers.delete(id);
    // Not waiting for open connections: they end with the job's forward.
    server.close();
    if (port) await allowRelay(this.address, [port], false).catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.servers.keys()].map((id) => this.close(id)));
  }

  private async admit(target: string, socket: Socket) {
    socket.on('error', () => socket.destroy());
    const uid = await socketOwner(socket);
    const live = await this.live();
    const peer = uid === null ? undefined : live.find(([, r]) => r.uid === uid)?.[1];
    const dest = live.find(([id]) => id === target)?.[1];
    if (!peer?.project || !dest?.port || peer.project !== dest.project) {
      socket.resetAndDestroy();
      return;
    }
    const upstream = connect(dest.port, '127.0.0.1');
    upstream.on('error', () => socket.resetAndDestroy());
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
    socket.resume();
  }
}

/**
 * The host address jobs reach relays on: its first IPv4 address that is not loopback (jobs
 * cannot reach the host's loopback), or null on a host without one.
 */
export function relayAddress(): string | null {
  const all = Object.values(networkInterfaces()).flat();
  return all.find((a) => a && a.family === 'IPv4' && !a.internal)?.address ?? null;
}

/**
 * The uid of the socket at the other end of an accepted connection, from the host's TCP table
 * (`/proc/net/tcp`: the entry whose local end is our peer and remote end is us). TCP has no
 * SO_PEERCRED; both ends live on this host, so the table has the connecting socket.
 */
export async function socketOwner(s: Socket): Promise<number | null> {
  const { remoteAddress, remotePort, localAddress, localPort } = s;
  if (!remoteAddress || !remotePort || !localAddress || !localPort) return null;
  const local = `${hexAddress(remoteAddress)}:${hexPort(remotePort)}`;
  const remote = `${hexAddress(localAddress)}:${hexPort(localPort)}`;
  const table = await readFile('/proc/net/tcp', 'latin1').catch(() => '');
  for (const line of table.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid …
    if (f[1] === local && f[2] === remote) return Number(f[7]);
  }
  return null;
}

/** An IPv4 address as the kernel prints it: the 32-bit word in host (little-endian) order. */
function hexAddress(ip: string): string {
  const octets = ip
    .replace(/^::ffff:/, '')
    .split('.')
    .map(Number);
  return octets
    .reverse()
    .map((o) => o.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

const hexPort = (p: number) => p.toString(16).toUpperCase().padStart(4, '0');
