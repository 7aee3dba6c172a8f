import { createInterface } from 'node:readline';
import { PassThrough, Readable } from 'node:stream';
import type Docker from 'dockerode';
import { gangEnv, type JobSpec, type ObservedState, type StatsSample } from '../driver.js';
import { freePort } from '../../net/ports.js';
import { LABEL, ignore } from './engine.js';
import { bridgeOf, dropIsolation, gangIsolationRules, nft } from './isolation.js';

/**
 * A job of several workers on the docker runtime (docs/jobs.md "Distributed jobs"): one container
 * per rank, all labelled with the job's id (so listing, capacity and events see the job), rank 0's
 * container named as a job of one is (exec, the HTTP port, relays and save reach it), rank r's
 * after the job and its rank (`workerKey`). The workers share a network made for the job
 * (`gangNetwork`, internal: no way out of it but to each other), where each is known by its alias
 * `worker-<rank>`; they join the server's network too, as any job's container does, for the way
 * out and the project's relays, under that network's isolation rules (isolation.ts).
 */

/** The number of workers of a gang's containers (absent on a job of one). */
export const WORKERS_LABEL = 'orrery.workers';
export const RANK_LABEL = 'orrery.worker';
/** PyTorch's default rendezvous port, free on a network made for the job. */
export const RENDEZVOUS_PORT = 29500;

/** What names a worker's container (after NAME_PREFIX) and its log's directory. */
export const workerKey = (id: string, rank: number) => (rank === 0 ? id : `${id}.w${rank}`);
export const workerKeys = (id: string, workers: number) =>
  [...Array(workers).keys()].map((r) => workerKey(id, r));
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
        port: spec.httpPort === RENDEZVOUS_PORT ? RENDEZVOUS_PORT + 1 : RENDEZVOUS_PORT,
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

/**
 * The gang's state from its workers' (in rank order): starting until every worker runs, running
 * while any does, and once all have ended, failed with the first failure (its exit code, reason
 * and worker) or succeeded. A worker whose container is gone while others remain was lost.
 */
export function gangState(states: ObservedState[]): ObservedState {
  const workers = states.length;
  const live = (s: ObservedState) => s.state === 'running' || s.state === 'starting';
  const begun = (s: ObservedState) =>
    s.state === 'running' || s.state === 'exited' ? s.startedAt : undefined;
  const latest = (dates: (Date | undefined)[]) =>
    new Date(Math.max(...dates.map((d) => d?.getTime() ?? 0)));
  if (states.some(live)) {
    const started = states.map(begun);
    // Running once every worker has run (the ones left may be stopping after a failure).
    return started.every(Boolean) && !states.some((s) => s.state === 'starting')
      ? { state: 'running', startedAt: latest(started) }
      : { state: 'starting' };
  }
  const ended = states.flatMap((s, rank) => (s.state === 'exited' ? [{ s, rank }] : []));
  if (ended.length === 0) return { state: 'missing' };
  const finishedAt = latest(ended.map((e) => e.s.finishedAt));
  const startedAt = states.every(begun) ? latest(states.map(begun)) : undefined;
  const failures = ended
    .filter((e) => e.s.exitCode !== 0)
    .sort((a, b) => a.s.finishedAt.getTime() - b.s.finishedAt.getTime());
  const lost = states.findIndex((s) => s.state === 'missing');
  if (failures.length === 0 && lost < 0) {
    return { state: 'exited', exitCode: 0, finishedAt, ...(startedAt ? { startedAt } : {}) };
  }
  const first = failures[0];
  const why = first
    ? `Worker ${first.rank} of ${workers} exited with code ${first.s.exitCode}${first.s.message ? ` (${first.s.message})` : ''}`
    : `Worker ${lost} of ${workers} was lost`;
  return {
    state: 'exited',
    exitCode: first?.s.exitCode ?? 1,
    finishedAt,
    ...(startedAt ? { startedAt } : {}),
    ...(first?.s.reason ? { reason: first.s.reason } : {}),
    message: `${why}; the other workers were stopped`,
  };
}

/** Whether a gang has a failed (or lost) worker while others still run: they are to be stopped. */
export function gangBroken(states: ObservedState[]): boolean {
  const failed = states.some(
    (s) => (s.state === 'exited' && s.exitCode !== 0) || s.state === 'missing',
  );
  return failed && states.some((s) => s.state === 'running' || s.state === 'starting');
}

/** Sorts as the time of a stamped line (`<RFC 3339> text`): engine nanoseconds or file millis. */
function stampKey(line: string): string {
  const stamp = line.slice(0, line.indexOf(' '));
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(stamp);
  return m ? `${m[1]}.${(m[2] ?? '').padEnd(9, '0')}` : stamp;
}

async function* lines(stream: Readable): AsyncIterable<string> {
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    yield `${line}\n`;
  }
}

/**
 * The workers' logs as one: read whole, their lines in the order of their times (each worker's
 * own in its order); followed, each line as it comes. `open` gives a worker's log, stamped when
 * asked; the stamps are dropped again unless the caller asked for them.
 */
export function mergedLog(
  logs: Array<(timestamps: boolean) => Promise<Readable>>,
  options: { follow: boolean; timestamps: boolean },
): Readable {
  if (options.follow) {
    const out = new PassThrough();
    void Promise.all(
      logs.map(async (open) => {
        for await (const line of lines(await open(options.timestamps))) {
          if (!out.write(line)) await new Promise((r) => out.once('drain', r));
        }
      }),
    ).then(
      () => out.end(),
      (e: Error) => out.destroy(e),
    );
    return out;
  }
  return Readable.from(
    (async function* () {
      // Each worker's lines come in their order: the earliest head of all is the next line, so
      // that no worker's log is held whole.
      const heads = await Promise.all(
        logs.map(async (open) => {
          const it = lines(await open(true))[Symbol.asyncIterator]();
          return { it, next: await it.next() };
        }),
      );
      for (;;) {
        let first: (typeof heads)[number] | undefined;
        for (const h of heads) {
          if (h.next.done) continue;
          // Ties go to the lower rank, whose line is then first.
          if (!first || stampKey(h.next.value) < stampKey(first.next.value as string)) first = h;
        }
        if (!first) return;
        const line = first.next.value as string;
        yield options.timestamps ? line : line.slice(line.indexOf(' ') + 1);
        first.next = await first.it.next();
      }
    })(),
  );
}

/**
 * The workers' stats added up, a sample each time rank 0's comes (the others' latest with it);
 * ends with rank 0's.
 */
export async function* summedStats(
  streams: Array<(abort: AbortSignal) => AsyncIterable<StatsSample>>,
  abort: AbortSignal,
): AsyncIterable<StatsSample> {
  const inner = new AbortController();
  const stop = () => inner.abort();
  abort.addEventListener('abort', stop);
  const latest = new Map<number, StatsSample>();
  /** Workers whose stream ended (their container stopped): they add nothing more. */
  const ended = new Set<number>();
  const others = streams.slice(1).map(async (open, i) => {
    try {
      for await (const s of open(inner.signal)) latest.set(i + 1, s);
    } finally {
      latest.delete(i + 1);
      ended.add(i + 1);
    }
  });
  try {
    for await (const s of streams[0](inner.signal)) {
      latest.set(0, s);
      // Not before every running worker has been sampled once: a part is not the sum.
      if (latest.size + ended.size < streams.length) continue;
      const all = [...latest.values()];
      const sum = (f: (x: StatsSample) => number | undefined) =>
        all.some((x) => f(x) !== undefined) ? all.reduce((a, x) => a + (f(x) ?? 0), 0) : undefined;
      const gpu = sum((x) => x.gpuDutyCycle);
      const gpuMemory = sum((x) => x.gpuMemoryBytes);
      yield {
        cpu: sum((x) => x.cpu) ?? 0,
        memoryBytes: sum((x) => x.memoryBytes) ?? 0,
        ...(gpu !== undefined ? { gpuDutyCycle: gpu / all.length } : {}),
        ...(gpuMemory !== undefined ? { gpuMemoryBytes: gpuMemory } : {}),
        timestamp: s.timestamp,
      };
    }
  } finally {
    abort.removeEventListener('abort', stop);
    inner.abort();
    // A worker's stream ending with an error (its container gone) ends nothing else.
    await Promise.allSettled(others);
  }
}
