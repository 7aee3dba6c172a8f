import { JobCreateFromPreset } from '@orrery/contract';
import { existsSync } from 'node:fs';
import { programsClosedToJobs } from '../../../runtime/process/app-runtime.js';
import { BWRAP } from '../../../runtime/process/sandbox.js';
import type { AppEndpoint, AppJob, InstanceContext } from '../runner.js';

/** The place is the service's to add (runner.ts); every other field gets its wire default. */
const Body = JobCreateFromPreset.omit({ cluster_name: true, org_name: true, project_name: true });

/** A job body from the fields a runner cares about, defaults filled as the jobs API would. */
export const jobSpec = (fields: Record<string, unknown>): AppJob['body'] => Body.parse(fields);

/** The preset of the instance and the persistent home mounted read-write at `path`. */
export const homeVolume = (ctx: InstanceContext, path: string) => ({
  src_storage_uri: ctx.home,
  dst_path: path,
  read_only: false,
});

/**
 * Whether the app's HTTP port needs a signed-in project member: Apolo's `IngressHttp.auth`,
 * found at `networking.ingress_http` (shell, jupyter, vscode) or `ingress_http` (the others).
 * Only an explicit `no_auth` opens it.
 */
export function requiresAuth(input: Record<string, unknown>): boolean {
  const networking = input.networking as { ingress_http?: unknown } | undefined;
  const ingress = (networking?.ingress_http ?? input.ingress_http) as
    { auth?: { type?: unknown } | null } | null | undefined;
  return ingress?.auth?.type !== 'no_auth';
}

type Api = 'webapp' | 'rest' | 'graphql' | 'grpc';

/** Apolo's `HttpApi` of an endpoint, inside the project (internal) or through the ingress. */
export function httpApi(e: AppEndpoint, side: 'internal' | 'external', path = '/', api: Api) {
  const timeout = 30;
  if (side === 'internal') {
    const { host, port, protocol } = e.internal;
    return { host, port, protocol, timeout, base_path: path, api_type: api };
  }
  const { host, port, protocol, basePath } = e.external;
  const base = `${basePath.replace(/\/$/, '')}${path}`;
  return { host, port, protocol, timeout, base_path: base, api_type: api };
}

/** `app_url: ServiceAPI[WebApp]`, both sides null while the app has no endpoint. */
export function appUrl(e: AppEndpoint | undefined, path = '/') {
  return {
    internal_url: e ? httpApi(e, 'internal', path, 'webapp') : null,
    external_url: e ? httpApi(e, 'external', path, 'webapp') : null,
  };
}

/** A positive number from the input, else the fallback. */
export const numberOr = (v: unknown, fallback: number) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback;

/**
 * An activity probe's answer as a date: `field` of the JSON body of `path` on the job of
 * `role`, null when the app does not answer or says nothing usable.
 */
export async function activityAt(
  probe: (role: string, path: string) => Promise<Response>,
  role: string,
  path: string,
  field: string,
): Promise<Date | null> {
  const res = await probe(role, path).catch(() => null);
  if (!res?.ok) return null;
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  const at = typeof body?.[field] === 'string' ? new Date(body[field] as string) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
}

interface FilesMount {
  storage_uri?: { path?: unknown };
  mount_path?: { path?: unknown };
  mode?: { mode?: unknown };
}

/** Volumes of Apolo's `StorageMounts {mounts: [ApoloFilesMount]}` (mode `r` is read-only). */
export function storageMounts(v: unknown) {
  const mounts = (v as { mounts?: FilesMount[] } | null | undefined)?.mounts ?? [];
  return mounts
    .filter(
      (m) => typeof m.storage_uri?.path === 'string' && typeof m.mount_path?.path === 'string',
    )
    .map((m) => ({
      src_storage_uri: m.storage_uri!.path as string,
      dst_path: m.mount_path!.path as string,
      read_only: m.mode?.mode === 'r',
    }));
}

/** `MLFLOW_TRACKING_URI` from a resolved MLflow integration (its `server_url` output). */
export function mlflowEnv(v: unknown): Record<string, string> {
  const url = (v as { internal_url?: { host?: string; port?: number; protocol?: string } } | null)
    ?.internal_url;
  return url?.host
    ? { MLFLOW_TRACKING_URI: `${url.protocol ?? 'http'}://${url.host}:${url.port ?? 80}` }
    : {};
}

/**
 * Why jobs cannot run Orrery's app programs here, or null: in the sandbox they read them
 * through a bind that only works if every directory on the way is searchable by others.
 */
export function appProgramsUnavailable(): string | null {
  const found = existsSync(BWRAP) ? programsClosedToJobs() : null;
  if (!found) return null;
  const { folder, closed } = found;
  return (
    `Jobs cannot read Orrery's app programs in ${folder}: ${closed} is closed to other ` +
    `users (as /root is). Put the checkout where they can read it, such as /opt/orrery, or open ` +
    `that directory to them (chmod o+x ${closed})`
  );
}
