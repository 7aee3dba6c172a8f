import { readFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Relays } from '../relay.js';
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
 * The process runtime's relays (../relay.ts) on the host's address, which the firewall opens to
 * job uids (network.ts `allowRelay`). A job's connection arrives from its network helper's
 * host-side socket, which runs as the job's uid: the host's sockets table names that uid, and
 * the uid names the job.
 */
export function processRelays(
  address: string,
  /** The jobs holding resources now (starting or running), by id. */
  live: () => Promise<[string, RelayedJob][]>,
): Relays {
  return new Relays({
    address,
    async peerProject(socket) {
      const uid = await socketOwner(socket);
      if (uid === null) return undefined;
      return (await live()).find(([, r]) => r.uid === uid)?.[1].project;
    },
    async target(id) {
      const r = (await live()).find(([job]) => job === id)?.[1];
      return r?.port ? { project: r.project, host: '127.0.0.1', port: r.port } : undefined;
    },
    allow: (ports, open) => allowRelay(address, ports, open),
    recorded: async () =>
      (await live()).flatMap(([id, r]) =>
        r.relayPort ? [[id, r.relayPort] as [string, number]] : [],
      ),
  });
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
