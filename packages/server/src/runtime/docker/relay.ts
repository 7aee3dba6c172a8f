import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type Docker from 'dockerode';
import { Relays } from '../relay.js';
import { LABEL, NAME_PREFIX, ignore } from './engine.js';
import { allowBridgeRelay, type BridgeNetwork } from './isolation.js';

/** The label naming a container's `cluster/org/project` (JobSpec.project). */
export const PROJECT_LABEL = 'orrery.project';
export const HTTP_PORT_LABEL = 'orrery.http-port';

/**
 * The docker runtime's relays (../relay.ts) on the gateway address of the bridge job containers
 * join: the isolation rules (isolation.ts) let the bridge reach exactly the relays' ports there.
 * A connection comes from the container's own address on the bridge (no NAT between a container
 * and its gateway, and containers are made without CAP_NET_RAW, so none forges another's): the
 * running container with that address names the job and its project.
 */
export function bridgeRelays(
  docker: Docker,
  network: string,
  net: BridgeNetwork & { gateway: string },
  /** The file that keeps a job's relay port for a later server (in the job's data directory). */
  portFile: (id: string) => string,
): Relays {
  const addressOf = (c: {
    NetworkSettings?: { Networks?: Record<string, { IPAddress?: string }> };
  }) => c.NetworkSettings?.Networks?.[network]?.IPAddress;
  const running = () => docker.listContainers({ filters: { label: [LABEL], status: ['running'] } });
  return new Relays({
    address: net.gateway,
    async peerProject(socket) {
      const ip = socket.remoteAddress?.replace(/^::ffff:/, '');
      if (!ip) return undefined;
      const peer = (await running()).find((c) => addressOf(c) === ip);
      return peer?.Labels[PROJECT_LABEL];
    },
    async target(id) {
      const c = await docker
        .getContainer(NAME_PREFIX + id)
        .inspect()
        .catch(ignore(404));
      const host = c && addressOf(c);
      const port = Number(c?.Config.Labels?.[HTTP_PORT_LABEL]);
      if (!c?.State.Running || !host || !port) return undefined;
      return { project: c.Config.Labels[PROJECT_LABEL], host, port };
    },
    allow: (ports, open) => allowBridgeRelay(net, ports, open),
    async recorded() {
      const ids = (await running()).map((c) => c.Labels[LABEL]);
      const ports = await Promise.all(ids.map((id) => recordedPort(portFile(id))));
      return ids.flatMap((id, i) => (ports[i] ? [[id, ports[i]] as [string, number]] : []));
    },
  });
}

/** The relay port recorded for a job, if any. */
export async function recordedPort(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return Number(text) || undefined;
}

export async function recordPort(file: string, port: number): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, String(port));
}
