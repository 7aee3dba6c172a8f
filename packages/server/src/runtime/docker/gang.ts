import type Docker from 'dockerode';
import { gangEnv, type JobSpec } from '../driver.js';
import { rendezvousPort, workerKey } from '../gang.js';
import { freePort } from '../../net/ports.js';
import { LABEL, ignore } from './engine.js';
import { bridgeOf, dropIsolation, gangIsolationRules, nft } from './isolation.js';

/**
 * A job of several workers on the docker runtime (docs/jobs.md "Distributed jobs"): one container
 * per rank, all labelled with the job's id (so listing, capacity and events see the job), rank 0's
 * container named as a job of one is (the HTTP port, relays and save reach it), rank r's after
 * the job and its rank (`workerKey`); exec and stats reach the rank asked for. The workers share a
 * network made for the job (`gangNetwork`, internal: no way out of it but to each other), where
 * each is known by its alias `worker-<rank>`; they join the server's network too, as any job's
 * container does, for the way out and the project's relays, under that network's isolation rules
 * (isolation.ts).
 */

/** The number of workers of a gang's containers (absent on a job of one). */
export const WORKERS_LABEL = 'orrery.workers';
export const RANK_LABEL = 'orrery.worker';

/** The job's own network, removed with the job. */
export const gangNetwork = (id: string) => `orrery-gang-${id}`;
/**
 * A worker's name on the job's network, which only its peers resolve (the engine's DNS answers
 * for a network's aliases to that network's members only). Not its host name: the engine
 * resolves host names on the server's network too, where workers do not reach each other.
 */
export const workerAlias = (rank: number) => `worker-${rank}`;

/**
 * Each worker's container, made from the job's (`single`, containerSpec's for the worker's own
 * spec): on the job's network under its alias, told its rank and the master's address, labelled
 * as the job's. With the host's network (no network of the job's), the workers share the host's
 * and find rank 0 on 127.0.0.1 at a port free there.
 */
export async function workerContainers(
  spec: JobSpec,
  hostNetwork: boolean,
  single: (worker: JobSpec) => Docker.ContainerCreateOptions,
): Promise<Docker.ContainerCreateOptions[]> {
  const workers = spec.workers ?? 1;
  const rendezvous = hostNetwork
    ? { address: '127.0.0.1', port: await freePort() }
    : {
        address: workerAlias(0),
        port: rendezvousPort(spec.httpPort),
      };
  const net = gangNetwork(spec.id);
  return [...Array(workers).keys()].map((rank) => {
    const c = single({
      ...spec,
      id: workerKey(spec.id, rank),
      workers: undefined,
      // Rank 0 serves the job's HTTP port, if it has one.
      httpPort: rank === 0 ? spec.httpPort : undefined,
      env: { ...spec.env, ...gangEnv(rank, workers, rendezvous) },
    });
    return {
      ...c,
      // A dot would make the rest the container's domain name.
      Hostname: rank === 0 ? spec.id : `${spec.id}-w${rank}`,
      Labels: {
        ...c.Labels,
        [LABEL]: spec.id,
        [WORKERS_LABEL]: String(workers),
        [RANK_LABEL]: String(rank),
      },
      ...(hostNetwork
        ? {}
        : {
            HostConfig: { ...c.HostConfig, NetworkMode: net },
            NetworkingConfig: { EndpointsConfig: { [net]: { Aliases: [workerAlias(rank)] } } },
          }),
    };
  });
}

/**
 * Makes the job's network (isolated as isolation.ts `gangIsolationRules` says when the server's
 * network is isolated: a gang is not started with less), then the workers' containers, each also
 * on the server's network, and starts them all. Whatever was made is removed again when any of it
 * fails.
 */
export async function startGang(
  docker: Docker,
  containers: Docker.ContainerCreateOptions[],
  opts: { id: string; network: string; isolated: boolean },
): Promise<void> {
  const hostNetwork = opts.network === 'host';
  const made: Docker.Container[] = [];
  try {
    if (!hostNetwork) {
      await docker.createNetwork({
        Name: gangNetwork(opts.id),
        Driver: 'bridge',
        // No way out but to the other workers: the server's network is the way out.
        Internal: true,
        CheckDuplicate: true,
        Labels: { [LABEL]: opts.id },
      });
      if (opts.isolated) {
        const net = await bridgeOf(docker, gangNetwork(opts.id));
        if (!net) throw new Error(`The network ${gangNetwork(opts.id)} is not a bridge network`);
        await nft(gangIsolationRules(net.bridge));
      }
    }
    for (const spec of containers) {
      const container = await docker.createContainer(spec);
      made.push(container);
      if (!hostNetwork) await docker.getNetwork(opts.network).connect({ Container: container.id });
    }
    await Promise.all(made.map((c) => c.start()));
  } catch (e) {
    // The start's error is the one the job reports; a failed clean-up is retried by remove.
    await Promise.all(made.map((c) => c.remove({ force: true }).catch(() => undefined)));
    await removeGangNetwork(docker, opts.id).catch(() => undefined);
    throw e;
  }
}

/** Removes the job's network (its containers gone) and its rules; nothing when it has none. */
export async function removeGangNetwork(docker: Docker, id: string): Promise<void> {
  const name = gangNetwork(id);
  const net = await bridgeOf(docker, name).catch(ignore(404));
  if (net === undefined) return;
  await docker.getNetwork(name).remove().catch(ignore(404));
  // A server that could not install rules has none to remove.
  if (net) await dropIsolation(net.bridge).catch(() => undefined);
}
