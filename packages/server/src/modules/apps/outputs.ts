import { type JobRow } from '../jobs/store.js';
import { containerOf } from '../jobs/container.js';
import type { Config } from '../../config.js';
import { jobOrigin } from '../jobs/ingress-host.js';
import type { AppEndpoint, AppJob } from './runner.js';

/** Apolo's `HttpApi`: how to reach an HTTP service, as the outputs of most templates carry it. */
export interface HttpApi {
  host: string;
  port: number;
  protocol: 'http' | 'https';
  timeout: number;
  base_path: string;
  api_type: 'rest';
}

/** Seconds a client of an app's API should wait for an answer (Apolo's default). */
const API_TIMEOUT_S = 30;

/**
 * The endpoints of a job with an HTTP port: the project's jobs reach it where the runtime says
 * (`reach`: the job's relay on either runtime, driver.ts `reachFromJobs`), else by host name.
 */
export function endpointOf(
  j: JobRow,
  config: Pick<Config, 'publicUrl' | 'ingressDomain'>,
  reach?: { host: string; port: number },
): AppEndpoint | null {
  const http = containerOf(j).http;
  if (!http) return null;
  // Through the ingress, at the root of the job's own host.
  const pub = new URL(jobOrigin(config, j.id));
  const https = pub.protocol === 'https:';
  return {
    internal: {
      host: reach?.host ?? `${j.id}.${j.orgName}--${j.projectName}`,
      port: reach?.port ?? http.port,
      protocol: 'http',
    },
    external: {
      host: pub.hostname,
      port: pub.port ? Number(pub.port) : https ? 443 : 80,
      protocol: https ? 'https' : 'http',
      basePath: '/',
    },
  };
}

/**
 * A job's `siblingEnv`, from the jobs of its revision created before it, by role, and where the
 * project's jobs reach them (`reach`, by role: their relays).
 */
export function siblingEnvOf(
  job: AppJob,
  byRole: Map<string, JobRow>,
  config: Pick<Config, 'publicUrl' | 'ingressDomain'>,
  reach = new Map<string, { host: string; port: number }>(),
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, { role, as }] of Object.entries(job.siblingEnv ?? {})) {
    const sibling = byRole.get(role);
    const e = sibling && endpointOf(sibling, config, reach.get(role));
    if (!e) throw new Error(`Job ${job.role} needs ${role}, planned before it with an HTTP port`);
    const { host, port, protocol, basePath } = e.external;
    // The origin without a default port, as a browser writes it.
    const origin = new URL(`${protocol}://${host}:${port}`).origin;
    env[name] =
      as === 'host'
        ? e.internal.host
        : as === 'port'
          ? String(e.internal.port)
          : `${origin}${basePath.replace(/\/$/, '')}`;
  }
  return env;
}

/** `{app_url: {internal_url, external_url}}` of an endpoint; nulls while it is not running. */
export function httpOutputs(e: AppEndpoint | undefined, basePath = '/') {
  if (!e) return { app_url: { internal_url: null, external_url: null } };
  const api = (
    host: string,
    port: number,
    protocol: HttpApi['protocol'],
    base: string,
  ): HttpApi => ({
    host,
    port,
    protocol,
    timeout: API_TIMEOUT_S,
    base_path: base,
    api_type: 'rest',
  });
  return {
    app_url: {
      internal_url: api(e.internal.host, e.internal.port, 'http', basePath),
      external_url: api(
        e.external.host,
        e.external.port,
        e.external.protocol,
        `${e.external.basePath.replace(/\/$/, '')}${basePath}`,
      ),
    },
  };
}
