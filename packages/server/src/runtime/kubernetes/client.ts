import { existsSync, readFileSync } from 'node:fs';
import {
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  NetworkingV1Api,
  type ApiException,
} from '@kubernetes/client-node';
import type { KubeOptions } from './options.js';

/** Where a Pod's service account finds its namespace (and token and CA, beside it). */
const SA_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

export interface KubeClient {
  config: KubeConfig;
  core: CoreV1Api;
  networking: NetworkingV1Api;
  custom: CustomObjectsApi;
  namespace: string;
  /** Whether the server runs in a Pod of the cluster (it then reaches Services directly). */
  inCluster: boolean;
}

/**
 * The API server from ORRERY_KUBE_CONFIG, else the in-cluster service account inside a Pod,
 * else KUBECONFIG or ~/.kube/config. The namespace: ORRERY_KUBE_NAMESPACE, else the service
 * account's, else the context's, else `default`.
 */
export function kubeClient(o: KubeOptions): KubeClient {
  const config = new KubeConfig();
  const inCluster = !o.configFile && !!process.env.KUBERNETES_SERVICE_HOST;
  if (o.configFile) config.loadFromFile(o.configFile);
  else if (inCluster) config.loadFromCluster();
  else config.loadFromDefault();
  if (o.context) {
    if (!config.getContextObject(o.context)) {
      throw new Error(`ORRERY_KUBE_CONTEXT: the kubeconfig has no context ${o.context}`);
    }
    config.setCurrentContext(o.context);
  }
  if (!config.getCurrentCluster()) throw new Error('The kubeconfig names no cluster');
  const namespace =
    o.namespace ??
    (inCluster && existsSync(SA_NAMESPACE) ? readFileSync(SA_NAMESPACE, 'utf8').trim() : null) ??
    config.getContextObject(config.getCurrentContext())?.namespace ??
    'default';
  return {
    config,
    core: config.makeApiClient(CoreV1Api),
    networking: config.makeApiClient(NetworkingV1Api),
    custom: config.makeApiClient(CustomObjectsApi),
    namespace,
    inCluster,
  };
}

/** The API's status code of a failed call (404 for a missing object). */
export const statusOf = (e: unknown) => (e as ApiException<unknown>)?.code;

/** Null for a missing object, the error otherwise. */
export async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (e) {
    if (statusOf(e) === 404) return null;
    throw e;
  }
}

/** Makes an object, or leaves the one already there (a disk's claim, a retried start). */
export async function ensure(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (e) {
    if (statusOf(e) !== 409) throw e;
  }
}

/** Deletes an object that may already be gone. */
export async function gone(call: Promise<unknown>): Promise<void> {
  await orNull(call);
}

/** The API server's own message of a failed call, for the job's history. */
export function apiMessage(e: unknown): string {
  const body = (e as ApiException<unknown>)?.body;
  if (typeof body === 'string') {
    try {
      return (JSON.parse(body) as { message?: string }).message ?? body;
    } catch {
      return body;
    }
  }
  const message = (body as { message?: string } | undefined)?.message;
  return message ?? (e instanceof Error ? e.message : String(e));
}
