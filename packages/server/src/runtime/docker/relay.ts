import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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
 * running container with that address names the job and its project. A job's relay port is kept
 * in `<data dir>/jobs/<id>/relay-port`, so a restart of the job or the server takes it again when
 * it is free (the jobs created after it were given that port).
 */
export class DockerRelays {
  private readonly relays: Relays;
  private readonly opening = new Map<string, Promise<number | null>>();

  constructor(
    docker: Docker,
    network: string,
    net: BridgeNetwork & { gateway: string },
    private readonly dataDir: string,
  ) {
    const addressOf = (c: {
      NetworkSettings?: { Networks?: Record<string, { IPAddress?: string }> };
    }) => c.NetworkSettings?.Networks?.[network]?.IPAddress;
    const running = () =>
      docker.listContainers({ filters: { label: [LABEL], status: ['running'] } });
    this.relays = new Relays({
      address: net.gateway,
      async peerProject(socket) {
        const ip = socket.remoteAddress?.replace(/^::ffff:/, '');
        if (!ip) return undefined;
        const all = await docker.listContainers({ all: true, filters: { label: [LABEL] } });
        const listed = all.find((c) => c.State === 'running' && addressOf(c) === ip);
        if (listed) return listed.Labels[PROJECT_LABEL];
        // The engine's list lags a container that has just started (no state or address yet),
        // and such a container often connects at once: its inspection is current.
        for (const c of all.filter((x) => x.State !== 'running' || !addressOf(x))) {
          const fresh = await docker
            .getContainer(c.Id)
            .inspect()
            .catch(() => null);
          if (fresh?.State.Running && addressOf(fresh) === ip) {
            return fresh.Config.Labels[PROJECT_LABEL];
          }
        }
        return undefined;
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
      recorded: async () => {
        const ids = (await running()).map((c) => c.Labels[LABEL]);
        const ports = await Promise.all(ids.map((id) => this.recorded(id)));
        return ids.flatMap((id, i) => (ports[i] ? [[id, ports[i]] as [string, number]] : []));
      },
    });
  }

  /**
   * Where the project's jobs reach job `id`: its relay, opened if need be, unless its container
   * exists and is stopped or has no port. One opening at a time per job: the apps service and the
   * job's start may ask at once.
   */
  async reach(
    id: string,
    inspect: () => Promise<Docker.ContainerInspectInfo | null>,
  ): Promise<{ host: string; port: number } | null> {
    let port: number | null | undefined = this.relays.portOf(id);
    if (!port) {
      let opening = this.opening.get(id);
      if (!opening) {
        opening = (async () => {
          const c = await inspect();
          if (c && (!c.State.Running || !c.Config.Labels?.[HTTP_PORT_LABEL])) return null;
          const bound = await this.relays.open(id, await this.recorded(id));
          await mkdir(dirname(this.file(id)), { recursive: true });
          await writeFile(this.file(id), String(bound));
          return bound;
        })().finally(() => this.opening.delete(id));
        this.opening.set(id, opening);
      }
      port = await opening;
    }
    return port ? { host: this.relays.address, port } : null;
  }

  reopen = () => this.relays.reopen();
  close = (id: string) => this.relays.close(id);
  closeAll = () => this.relays.closeAll();

  private file(id: string) {
    if (!/^[\w.-]+$/.test(id)) throw new Error(`Bad job id ${id}`);
    return join(this.dataDir, 'jobs', id, 'relay-port');
  }

  private async recorded(id: string): Promise<number | undefined> {
    return Number(await readFile(this.file(id), 'utf8').catch(() => '')) || undefined;
  }
}
