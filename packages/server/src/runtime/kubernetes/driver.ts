import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Watch, type V1Pod } from '@kubernetes/client-node';
import { listening } from '../../net/ports.js';
import { JobListeners } from '../common.js';
import type {
  ExecOptions,
  ExecSession,
  JobSpec,
  LogOptions,
  ObservedState,
  NodeCapacity,
  PoolCapacity,
  RuntimeDriver,
  StatsSample,
} from '../driver.js';
import { LogArchive } from './archive.js';
import { gangBroken, gangState, mergedLog, summedStats, workerKeys } from '../gang.js';
import {
  gangHttpServiceManifest,
  gangNetworkPolicyManifest,
  gangPodManifests,
  gangServiceManifest,
  gangServiceName,
  workerPodName,
} from './gang.js';
import { apiMessage, ensure, gone, kubeClient, orNull, type KubeClient } from './client.js';
import { PortForwards } from './forward.js';
import {
  diskClaimManifest,
  networkPolicyManifest,
  podManifest,
  pullSecretManifest,
  secretManifest,
  serviceManifest,
  type ManifestOptions,
} from './manifests.js';
import {
  ANNOTATIONS,
  JOB_LABEL,
  diskClaimName,
  objectName,
  pullSecretName,
  quantity,
  secretName,
} from './names.js';
import type { KubeOptions } from './options.js';
import { kubeNodes, poolsOf } from './pools.js';
import { observedOf } from './state.js';
import { attachSession, execSession, podLog } from './streams.js';

export interface KubernetesDriverOptions {
  dataDir: string;
  killGraceMs?: number;
  kube: KubeOptions;
}

/**
 * Jobs as Pods `orrery-<id>` labelled `orrery.io/job=<id>` in one namespace, with a Service
 * and a NetworkPolicy of the same name, a Secret for their secrets and one for pulling from the
 * project's registry (manifests.ts). The driver watches its Pods and tells the jobs service
 * of every change; logs, exec, attach and port traffic go through the API server.
 */
export class KubernetesDriver implements RuntimeDriver {
  readonly name = 'kubernetes';
  /** Jobs of several workers: a Pod each, found by each other through a headless Service. */
  readonly gangs = true as const;
  private readonly listeners = new JobListeners();
  /** Gangs whose Pods are being made, and gangs whose workers are being stopped. */
  private readonly starting = new Set<string>();
  private readonly stopping = new Set<string>();
  private readonly archive: LogArchive;
  private readonly forwards: PortForwards;
  private readonly manifests: ManifestOptions;
  private watching?: AbortController;
  private closed = false;

  constructor(
    private readonly k: KubeClient,
    opts: KubernetesDriverOptions,
  ) {
    this.archive = new LogArchive(k, opts.dataDir);
    this.forwards = new PortForwards(k);
    this.manifests = {
      namespace: k.namespace,
      poolLabel: opts.kube.poolLabel,
      preemptibleTaint: opts.kube.preemptibleTaint,
      storageClaim: opts.kube.storageClaim,
      diskStorageClass: opts.kube.diskStorageClass,
      killGraceMs: opts.killGraceMs ?? 10_000,
    };
    this.reach = opts.kube.reach ?? (k.inCluster ? 'service' : 'port-forward');
  }

  private readonly reach: 'service' | 'port-forward';

  /** Connects (a first list of the namespace's job Pods proves access) and starts watching. */
  static async connect(opts: KubernetesDriverOptions, client?: KubeClient) {
    const k = client ?? kubeClient(opts.kube);
    const driver = new KubernetesDriver(k, opts);
    try {
      await driver.pods();
    } catch (e) {
      throw new Error(
        `The Kubernetes API server at ${k.config.getCurrentCluster()?.server} refused to list Pods in namespace ${k.namespace}: ${apiMessage(e)}`,
      );
    }
    driver.watch();
    return driver;
  }

  private pods(): Promise<V1Pod[]> {
    return this.k.core
      .listNamespacedPod({ namespace: this.k.namespace, labelSelector: JOB_LABEL })
      .then((l) => l.items);
  }

  private pod(id: string): Promise<V1Pod | null> {
    return this.podNamed(objectName(id));
  }

  private podNamed(name: string): Promise<V1Pod | null> {
    return orNull(this.k.core.readNamespacedPod({ name, namespace: this.k.namespace }));
  }

  /**
   * The job's workers: each one's key (its log's directory) and Pod. A gang's record, kept with
   * its logs, says how many; a job of one is its own Pod.
   */
  private async workersOf(id: string): Promise<Array<{ key: string; pod: string }>> {
    const n = Number(await readFile(join(this.archive.dir(id), 'workers'), 'utf8').catch(() => 1));
    if (!(n > 1)) return [{ key: id, pod: objectName(id) }];
    return workerKeys(id, n).map((key, rank) => ({ key, pod: workerPodName(id, rank) }));
  }

  async start(spec: JobSpec): Promise<void> {
    const existing = await this.pod(spec.id);
    if (existing?.status?.phase === 'Running') throw new Error(`Job ${spec.id} is already running`);
    if (existing) await this.remove(spec.id);
    const secretFiles = await Promise.all(
      spec.mounts.filter((m) => m.source?.kind === 'secret').map((m) => readFile(m.hostPath)),
    );
    // Every manifest is made before anything is created: a mount it cannot express fails here.
    const o = this.manifests;
    const gang = (spec.workers ?? 1) > 1;
    const pods = gang ? gangPodManifests(spec, o) : [podManifest(spec, o)];
    const objects = {
      secret: secretManifest(spec, o, secretFiles),
      pull: pullSecretManifest(spec, o),
      service: gang ? gangHttpServiceManifest(spec, o) : serviceManifest(spec, o),
      policy: gang ? gangNetworkPolicyManifest(spec, o) : networkPolicyManifest(spec, o),
      workers: gang ? gangServiceManifest(spec, o) : null,
    };
    if (gang) {
      // Kept after the job is removed, for its workers' logs.
      await mkdir(this.archive.dir(spec.id), { recursive: true });
      await writeFile(join(this.archive.dir(spec.id), 'workers'), String(spec.workers));
      this.starting.add(spec.id);
    }
    const namespace = this.k.namespace;
    try {
      for (const m of spec.mounts) {
        if (m.source?.kind !== 'disk') continue;
        const body = diskClaimManifest(m.source, o);
        await ensure(this.k.core.createNamespacedPersistentVolumeClaim({ namespace, body }));
      }
      if (objects.secret)
        await this.k.core.createNamespacedSecret({ namespace, body: objects.secret });
      if (objects.pull) await this.k.core.createNamespacedSecret({ namespace, body: objects.pull });
      await this.k.networking.createNamespacedNetworkPolicy({ namespace, body: objects.policy });
      if (objects.service)
        await this.k.core.createNamespacedService({ namespace, body: objects.service });
      if (objects.workers)
        await this.k.core.createNamespacedService({ namespace, body: objects.workers });
      for (const body of pods) await this.k.core.createNamespacedPod({ namespace, body });
    } catch (e) {
      // Nothing of a job that could not start is left behind; the refusal is the error to report,
      // and objects a failed clean-up leaves are removed with the job.
      await this.removeObjects(spec.id).catch(() => undefined);
      throw new Error(`The Kubernetes API server refused the job: ${apiMessage(e)}`);
    } finally {
      this.starting.delete(spec.id);
    }
  }

  /** Every worker's Pod deleted, together. */
  async kill(id: string): Promise<void> {
    await this.forwards.close(id);
    await Promise.all((await this.workersOf(id)).map((w) => this.killPod(w.key, w.pod)));
  }

  private async killPod(key: string, name: string): Promise<void> {
    const pod = await this.podNamed(name);
    if (!pod) return;
    // The log is copied before the Pod is deleted, since its log goes with it; a kill proceeds
    // even when the copy fails (a Pod whose node is gone has no log to give).
    await this.archive.copy(key, name, pod.metadata?.uid ?? '').catch(() => undefined);
    await gone(
      this.k.core.deleteNamespacedPod({
        name,
        namespace: this.k.namespace,
        gracePeriodSeconds: Math.ceil(this.manifests.killGraceMs / 1000),
      }),
    );
  }

  /** A gang's is its workers' (runtime/gang.ts `gangState`); one that broke has the rest stopped. */
  async observe(id: string): Promise<ObservedState> {
    const workers = await this.workersOf(id);
    const states = await Promise.all(workers.map((w) => this.observePod(w.key, w.pod)));
    if (workers.length === 1) return states[0]!;
    // While the Pods are being made, one not made yet is not lost.
    if (!this.starting.has(id) && gangBroken(states)) void this.stopLive(id, states);
    return gangState(states);
  }

  /**
   * Deletes the Pods of a gang's workers that still run once one has failed (a gang is only
   * useful whole); the failed one stays, with its exit code, until the job is removed.
   */
  private async stopLive(id: string, states: ObservedState[]) {
    if (this.stopping.has(id)) return;
    this.stopping.add(id);
    try {
      const live = (await this.workersOf(id)).filter(
        (_, r) => states[r]?.state === 'running' || states[r]?.state === 'starting',
      );
      await Promise.all(live.map((w) => this.killPod(w.key, w.pod)));
    } catch {
      // The next observation tries again.
    } finally {
      this.stopping.delete(id);
    }
  }

  private async observePod(key: string, name: string): Promise<ObservedState> {
    const pod = await this.podNamed(name);
    if (!pod) return { state: 'missing' };
    if (pod.status?.phase !== 'Pending') {
      const seen = observedOf(pod);
      if (seen.state === 'exited') await this.archive.copy(key, name, pod.metadata?.uid ?? '');
      return seen;
    }
    const events = await this.k.core.listNamespacedEvent({
      namespace: this.k.namespace,
      fieldSelector: `involvedObject.kind=Pod,involvedObject.name=${name}`,
    });
    return observedOf(pod, events.items);
  }

  onChange(listener: (id: string) => void): () => void {
    return this.listeners.add(listener);
  }

  async list(): Promise<string[]> {
    const ids = (await this.pods()).map((p) => p.metadata?.labels?.[JOB_LABEL]);
    // A gang's Pods all carry its id.
    return [...new Set(ids.filter((id) => !!id) as string[])];
  }

  async remove(id: string): Promise<void> {
    await this.forwards.close(id);
    for (const w of await this.workersOf(id)) {
      const pod = await this.podNamed(w.pod);
      // As in kill: the copy is tried, the removal happens regardless.
      if (pod)
        await this.archive.copy(w.key, w.pod, pod.metadata?.uid ?? '').catch(() => undefined);
    }
    await this.removeObjects(id);
  }

  private async removeObjects(id: string) {
    const namespace = this.k.namespace;
    const name = objectName(id);
    for (const w of await this.workersOf(id)) {
      await gone(
        this.k.core.deleteNamespacedPod({ name: w.pod, namespace, gracePeriodSeconds: 0 }),
      );
    }
    await gone(this.k.core.deleteNamespacedService({ name: gangServiceName(id), namespace }));
    await gone(this.k.core.deleteNamespacedService({ name, namespace }));
    await gone(this.k.networking.deleteNamespacedNetworkPolicy({ name, namespace }));
    await gone(this.k.core.deleteNamespacedSecret({ name: secretName(id), namespace }));
    await gone(this.k.core.deleteNamespacedSecret({ name: pullSecretName(id), namespace }));
  }

  /** A gang's log is its workers' merged (runtime/gang.ts `mergedLog`); `worker` picks one. */
  async logs(id: string, options: LogOptions): Promise<Readable> {
    const workers = await this.workersOf(id);
    if (workers.length === 1) return this.podLogs(id, objectName(id), options);
    if (options.worker !== undefined) {
      const w = await this.worker(id, options.worker);
      return this.podLogs(w.key, w.pod, options);
    }
    const opened = workers.map(
      (w) => (timestamps: boolean) => this.podLogs(w.key, w.pod, { ...options, timestamps }),
    );
    return mergedLog(opened, options);
  }

  private async podLogs(key: string, name: string, options: LogOptions): Promise<Readable> {
    const file = this.archive.file(key);
    const pod = await this.podNamed(name);
    const uid = pod?.metadata?.uid;
    if (!pod || pod.status?.phase === 'Pending' || (await this.archive.archived(key)) === uid) {
      return file.read(options);
    }
    const live = await podLog(this.k, name, options);
    // Earlier runs of the job (restarts) were archived when their Pod went.
    return Readable.from(
      (async function* () {
        yield* file.read({ ...options, follow: false });
        yield* live;
      })(),
    );
  }

  /** A gang's: its workers' Pods added up, or one's (`worker`). */
  stats(id: string, abort: AbortSignal, worker?: number): AsyncIterable<StatsSample> {
    return async function* (this: KubernetesDriver) {
      const pods = (await this.workersOf(id)).map((w) => w.pod);
      if (pods.length === 1) yield* this.podStats(pods[0]!, abort);
      else if (worker !== undefined)
        yield* this.podStats((await this.worker(id, worker)).pod, abort);
      else
        yield* summedStats(
          pods.map((p) => (signal: AbortSignal) => this.podStats(p, signal)),
          abort,
        );
    }.call(this);
  }

  /** The metrics API's usage of the Pod (metrics-server refreshes it every 15 s or so). */
  private async *podStats(name: string, abort: AbortSignal): AsyncIterable<StatsSample> {
    while (!abort.aborted) {
      const pod = await this.podNamed(name);
      if (pod?.status?.phase !== 'Running') return;
      const m = (await orNull(
        this.k.custom.getNamespacedCustomObject({
          group: 'metrics.k8s.io',
          version: 'v1beta1',
          namespace: this.k.namespace,
          plural: 'pods',
          name,
        }),
      )) as PodMetrics | null;
      if (m && !abort.aborted) {
        const usage = m.containers.map((c) => c.usage);
        yield {
          cpu: usage.reduce((a, u) => a + quantity(u.cpu), 0),
          memoryBytes: usage.reduce((a, u) => a + quantity(u.memory), 0),
          timestamp: m.timestamp ? Date.parse(m.timestamp) : Date.now(),
        };
      }
      // Aborted when the reader stops: the loop's condition ends it.
      await sleep(1000, undefined, { signal: abort }).catch(() => undefined);
    }
  }

  async endpoint(id: string): Promise<{ host: string; port: number } | null> {
    const pod = await this.pod(id);
    const port = Number(pod?.metadata?.annotations?.[ANNOTATIONS.httpPort]);
    if (pod?.status?.phase !== 'Running' || !port) return null;
    if (this.reach === 'port-forward') return this.forwards.open(id, objectName(id), port);
    const host = `${objectName(id)}.${this.k.namespace}.svc`;
    return (await listening(port, 500, host)) ? { host, port } : null;
  }

  /** The job's Service, which its NetworkPolicy opens to the jobs of its project. */
  async reachFromJobs(id: string): Promise<{ host: string; port: number } | null> {
    const pod = await this.pod(id);
    const port = Number(pod?.metadata?.annotations?.[ANNOTATIONS.httpPort]);
    return port ? { host: `${objectName(id)}.${this.k.namespace}.svc`, port } : null;
  }

  /** Each Ready, schedulable node: allocatable less what Pods other than Orrery's jobs request. */
  async nodes(): Promise<NodeCapacity[]> {
    const [nodes, pods] = await Promise.all([this.k.core.listNode(), this.livePods()]);
    // A job Pod of another installation (another namespace) is work like any other.
    const ours = (p: V1Pod) =>
      p.metadata?.namespace === this.k.namespace && !!p.metadata?.labels?.[JOB_LABEL];
    return kubeNodes(nodes.items, pods.items, this.manifests.poolLabel, ours);
  }

  async capacity(): Promise<PoolCapacity[]> {
    const [nodes, pods] = await Promise.all([this.k.core.listNode(), this.livePods()]);
    return poolsOf(nodes.items, pods.items, this.manifests.poolLabel);
  }

  /** The Pods of every namespace that hold what they requested (not finished). */
  private livePods() {
    return this.k.core.listPodForAllNamespaces({
      fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed',
    });
  }

  /** The disk's claim, made by the first job that mounted it. */
  async removeDisk(diskId: string): Promise<void> {
    await gone(
      this.k.core.deleteNamespacedPersistentVolumeClaim({
        name: diskClaimName(diskId),
        namespace: this.k.namespace,
      }),
    );
  }

  /** In the Pod of the worker asked for (rank 0's without one). */
  async exec(id: string, options: ExecOptions): Promise<ExecSession> {
    return execSession(this.k, (await this.worker(id, options.worker)).pod, options);
  }

  /**
   * To the Pod of the worker asked for; the exit code once it closes is the job's, or that
   * worker's own when one was named (its Pod ends before the job may).
   */
  async attach(id: string, options: ExecOptions): Promise<ExecSession> {
    const { key, pod } = await this.worker(id, options.worker);
    return attachSession(this.k, pod, options, async () => {
      for (;;) {
        const seen =
          options.worker === undefined ? await this.observe(id) : await this.observePod(key, pod);
        if (seen.state === 'exited') return seen.exitCode;
        if (seen.state === 'missing') return 137;
        await sleep(500);
      }
    });
  }

  /** Worker `rank` (from 0; absent: 0) of the job: its key and Pod. */
  private async worker(id: string, rank = 0): Promise<{ key: string; pod: string }> {
    const workers = await this.workersOf(id);
    const w = workers[rank];
    if (!w) throw new Error(`Job ${id} has ${workers.length} worker(s), numbered from 0`);
    return w;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watching?.abort();
    this.listeners.clear();
    await this.forwards.closeAll();
    await this.archive.settle();
  }

  /** Follows the namespace's job Pods; a broken watch is started again a few seconds later. */
  private watch() {
    if (this.closed) return;
    const again = () => {
      if (!this.closed) setTimeout(() => this.watch(), 3000).unref();
    };
    new Watch(this.k.config)
      .watch(
        `/api/v1/namespaces/${this.k.namespace}/pods`,
        { labelSelector: JOB_LABEL },
        (_type, pod: V1Pod) => {
          const id = pod.metadata?.labels?.[JOB_LABEL];
          if (id) this.listeners.emit(id);
        },
        again,
      )
      .then((c) => (this.closed ? c.abort() : (this.watching = c)), again);
  }
}

interface PodMetrics {
  timestamp?: string;
  containers: Array<{ name: string; usage: { cpu: string; memory: string } }>;
}
