import { readFile } from 'node:fs/promises';
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
  private readonly listeners = new JobListeners();
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
    return orNull(
      this.k.core.readNamespacedPod({ name: objectName(id), namespace: this.k.namespace }),
    );
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
    const pod = podManifest(spec, o);
    const objects = {
      secret: secretManifest(spec, o, secretFiles),
      pull: pullSecretManifest(spec, o),
      service: serviceManifest(spec, o),
      policy: networkPolicyManifest(spec, o),
    };
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
      await this.k.core.createNamespacedPod({ namespace, body: pod });
    } catch (e) {
      // Nothing of a job that could not start is left behind; the refusal is the error to report,
      // and objects a failed clean-up leaves are removed with the job.
      await this.removeObjects(spec.id).catch(() => undefined);
      throw new Error(`The Kubernetes API server refused the job: ${apiMessage(e)}`);
    }
  }

  async kill(id: string): Promise<void> {
    await this.forwards.close(id);
    const pod = await this.pod(id);
    if (!pod) return;
    // The log is copied before the Pod is deleted, since its log goes with it; a kill proceeds
    // even when the copy fails (a Pod whose node is gone has no log to give).
    await this.archive.copy(id, objectName(id), pod.metadata?.uid ?? '').catch(() => undefined);
    await gone(
      this.k.core.deleteNamespacedPod({
        name: objectName(id),
        namespace: this.k.namespace,
        gracePeriodSeconds: Math.ceil(this.manifests.killGraceMs / 1000),
      }),
    );
  }

  async observe(id: string): Promise<ObservedState> {
    const pod = await this.pod(id);
    if (!pod) return { state: 'missing' };
    if (pod.status?.phase !== 'Pending') {
      const seen = observedOf(pod);
      if (seen.state === 'exited')
        await this.archive.copy(id, objectName(id), pod.metadata?.uid ?? '');
      return seen;
    }
    const events = await this.k.core.listNamespacedEvent({
      namespace: this.k.namespace,
      fieldSelector: `involvedObject.kind=Pod,involvedObject.name=${objectName(id)}`,
    });
    return observedOf(pod, events.items);
  }

  onChange(listener: (id: string) => void): () => void {
    return this.listeners.add(listener);
  }

  async list(): Promise<string[]> {
    return (await this.pods())
      .map((p) => p.metadata?.labels?.[JOB_LABEL])
      .filter((id) => !!id) as string[];
  }

  async remove(id: string): Promise<void> {
    await this.forwards.close(id);
    const pod = await this.pod(id);
    // As in kill: the copy is tried, the removal happens regardless.
    if (pod)
      await this.archive.copy(id, objectName(id), pod.metadata?.uid ?? '').catch(() => undefined);
    await this.removeObjects(id);
  }

  private async removeObjects(id: string) {
    const namespace = this.k.namespace;
    const name = objectName(id);
    await gone(this.k.core.deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 }));
    await gone(this.k.core.deleteNamespacedService({ name, namespace }));
    await gone(this.k.networking.deleteNamespacedNetworkPolicy({ name, namespace }));
    await gone(this.k.core.deleteNamespacedSecret({ name: secretName(id), namespace }));
    await gone(this.k.core.deleteNamespacedSecret({ name: pullSecretName(id), namespace }));
  }

  async logs(id: string, options: LogOptions): Promise<Readable> {
    const file = this.archive.file(id);
    const pod = await this.pod(id);
    const uid = pod?.metadata?.uid;
    if (!pod || pod.status?.phase === 'Pending' || (await this.archive.archived(id)) === uid) {
      return file.read(options);
    }
    const live = await podLog(this.k, objectName(id), options);
    // Earlier runs of the job (restarts) were archived when their Pod went.
    return Readable.from(
      (async function* () {
        yield* file.read({ ...options, follow: false });
        yield* live;
      })(),
    );
  }

  /** The metrics API's usage of the Pod (metrics-server refreshes it every 15 s or so). */
  async *stats(id: string, abort: AbortSignal): AsyncIterable<StatsSample> {
    while (!abort.aborted) {
      const pod = await this.pod(id);
      if (pod?.status?.phase !== 'Running') return;
      const m = (await orNull(
        this.k.custom.getNamespacedCustomObject({
          group: 'metrics.k8s.io',
          version: 'v1beta1',
          namespace: this.k.namespace,
          plural: 'pods',
          name: objectName(id),
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

  async exec(id: string, options: ExecOptions): Promise<ExecSession> {
    return execSession(this.k, objectName(id), options);
  }

  async attach(id: string, options: ExecOptions): Promise<ExecSession> {
    return attachSession(this.k, objectName(id), options, async () => {
      for (;;) {
        const seen = await this.observe(id);
        if (seen.state === 'exited') return seen.exitCode;
        if (seen.state === 'missing') return 137;
        await sleep(500);
      }
    });
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
