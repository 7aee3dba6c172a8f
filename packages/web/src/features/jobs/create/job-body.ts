import type { RestartPolicy, JobPriority, ProjectPlace } from '@orrery/contract';
import { toWireEnv, toWireVolumes } from '../../../forms';
import type { EnvEntry, VolumeEntry } from '../../../forms';
import type { JobCreation } from './api';

/** The values of the `job` template's form, by the template's property names. */
export interface JobFormValues {
  image: string;
  preset_name: string;
  name: string;
  description: string;
  tags: string[];
  command: string;
  entrypoint: string;
  working_dir: string;
  http: { port?: number; requires_auth: boolean } | null;
  env: EnvEntry[];
  volumes: VolumeEntry[];
  resources: { shm: boolean };
  max_run_time_minutes?: number;
  /** Workers of a distributed job (docs/jobs.md); absent where the runtime runs none. */
  nodes?: number;
  schedule_timeout: number | null | undefined;
  restart_policy: RestartPolicy;
  priority: JobPriority;
  wait_for_jobs_quota: boolean;
  pass_config: boolean;
  privileged: boolean;
}

const DEFAULTS: JobFormValues = {
  image: '',
  preset_name: '',
  name: '',
  description: '',
  tags: [],
  command: '',
  entrypoint: '',
  working_dir: '',
  http: null,
  env: [],
  volumes: [],
  resources: { shm: false },
  schedule_timeout: null,
  restart_policy: 'never',
  priority: 'normal',
  wait_for_jobs_quota: false,
  pass_config: false,
  privileged: false,
};

/** Optional text: left out when empty, so the server applies its own default. */
const optional = (text: string | undefined) => (text?.trim() ? text.trim() : undefined);

/**
 * The form's values as the `POST /jobs?from_preset` body for the current
 * project, with what is needed to put the server's field errors back on the form.
 */
export function toJobBody(values: JobFormValues, place: ProjectPlace) {
  // A template version may leave inputs out; the body then carries the server's defaults.
  const v: JobFormValues = { ...DEFAULTS, ...values };
  const mounts = toWireVolumes(v.volumes, place);
  const { env, secret_env } = toWireEnv(v.env, place);
  const body: JobCreation = {
    clusterName: place.clusterName,
    orgName: place.orgName,
    projectName: place.projectName,
    presetName: optional(v.preset_name),
    image: (v.image ?? '').trim(),
    name: optional(v.name),
    description: optional(v.description),
    tags: v.tags,
    command: optional(v.command),
    entrypoint: optional(v.entrypoint),
    workingDir: optional(v.working_dir),
    http: v.http?.port
      ? { port: v.http.port, requiresAuth: v.http.requires_auth, healthCheckPath: '/' }
      : undefined,
    env,
    secretEnv: secret_env,
    volumes: mounts.volumes.map((m) => ({
      srcStorageUri: m.src_storage_uri,
      dstPath: m.dst_path,
      readOnly: m.read_only,
    })),
    diskVolumes: mounts.disk_volumes.map((m) => ({
      srcDiskUri: m.src_disk_uri,
      dstPath: m.dst_path,
      readOnly: m.read_only,
    })),
    secretVolumes: mounts.secret_volumes.map((m) => ({
      srcSecretUri: m.src_secret_uri,
      dstPath: m.dst_path,
    })),
    tty: false,
    resources: { shm: v.resources.shm },
    maxRunTimeMinutes: v.max_run_time_minutes,
    // One worker is every job's: the body says nothing then, as Apolo's clients do.
    nodes: v.nodes && v.nodes > 1 ? v.nodes : undefined,
    scheduleTimeout: v.schedule_timeout ?? undefined,
    restartPolicy: v.restart_policy,
    priority: v.priority,
    waitForJobsQuota: v.wait_for_jobs_quota,
    passConfig: v.pass_config,
    privileged: v.privileged,
  };
  return { body, warning: mounts.warning, toFormPath: formPathOf(v, mounts.origin) };
}

const VOLUME_FIELDS: Record<string, string> = {
  dst_path: 'path',
  read_only: 'mode',
  src_storage_uri: 'resource',
  src_disk_uri: 'resource',
  src_secret_uri: 'resource',
};

/**
 * Where the form keeps what a wire path names: the three volume lists are one editor, the two
 * env maps one list whose rows are found by variable name. Other paths are the same on both.
 */
const formPathOf =
  (v: JobFormValues, origin: Record<string, number>) =>
  (wirePath: string): string => {
    const volume = /^((?:disk_|secret_)?volumes\.\d+)(?:\.(\w+))?/.exec(wirePath);
    if (volume && volume[1] in origin)
      return `volumes.${origin[volume[1]]}.${VOLUME_FIELDS[volume[2] ?? ''] ?? 'resource'}`;
    const envVar = /^(env|secret_env)\.(.+)$/.exec(wirePath);
    if (envVar) {
      const type = envVar[1] === 'env' ? 'variable' : 'secret';
      const row = v.env.findIndex((e) => e.type === type && e.name === envVar[2]);
      if (row >= 0) return `env.${row}.name`;
    }
    return wirePath;
  };
