import { JOB_TEMPLATE } from '@orrery/contract';
import type { AppRunner } from '../../runner.js';
import { jobBody, type JobDraft } from '../../job-body.js';
import { httpOutputs } from '../../outputs.js';

type EnvItem = { name: string; value: string; type: 'variable' | 'secret' };
type VolumeItem = {
  type?: 'storage' | 'disk' | 'secret';
  resource?: string;
  path?: string;
  mode?: 'ro' | 'rw';
};

/** The console's env and volume lists split as the jobs API takes them (docs/forms.md). */
function splitLists(input: Record<string, unknown>): Partial<JobDraft> {
  const env = (input.env as EnvItem[] | undefined) ?? [];
  const volumes = (input.volumes as VolumeItem[] | undefined) ?? [];
  const of = (t: string) =>
    volumes.filter((v) => (v.type ?? 'storage') === t && v.resource && v.path);
  return {
    env: Object.fromEntries(env.filter((e) => e.type !== 'secret').map((e) => [e.name, e.value])),
    secret_env: Object.fromEntries(
      env.filter((e) => e.type === 'secret').map((e) => [e.name, e.value]),
    ),
    volumes: of('storage').map((v) => ({
      src_storage_uri: v.resource!,
      dst_path: v.path!,
      read_only: v.mode !== 'rw',
    })),
    disk_volumes: of('disk').map((v) => ({
      src_disk_uri: v.resource!,
      dst_path: v.path!,
      read_only: v.mode !== 'rw',
    })),
    secret_volumes: of('secret').map((v) => ({ src_secret_uri: v.resource!, dst_path: v.path! })),
  };
}

/** The `job` template: its input is the body of `POST /jobs?from_preset`, run as one job. */
export const jobRunner: AppRunner = {
  template: JOB_TEMPLATE,
  runtimes: ['process', 'docker', 'kubernetes', 'slurm'],
  plan(input, ctx) {
    const { env: _e, volumes: _v, preset_name: _p, http, ...rest } = input;
    const web = http as { port: number; requires_auth?: boolean } | null | undefined;
    return {
      jobs: [
        {
          role: 'main',
          body: jobBody({
            ...(rest as Partial<JobDraft>),
            image: String(input.image),
            preset_name: ctx.preset.name,
            ...(web
              ? {
                  http: {
                    port: web.port,
                    health_check_path: '/',
                    requires_auth: web.requires_auth ?? true,
                  },
                }
              : {}),
            ...splitLists(input),
          }),
        },
      ],
      health: web ? { role: 'main', path: '/' } : undefined,
    };
  },
  outputs: (_input, ctx) => httpOutputs(ctx.endpoints.main),
};
