import type { AppManifest } from '@orrery/contract';
import type { AppRunner, InstanceContext, OutputContext } from '../../runner.js';
import { envOf, jobBody } from '../../job-body.js';
import { httpOutputs } from '../../outputs.js';

/** The product's deploy template: `{product}-deploy` with the product title lowercased. */
export const DEPLOY_TEMPLATE = 'orrery-deploy';

interface Served {
  image: string;
  command?: string;
  port: number;
  healthPath: string;
  env: Record<string, string>;
  requiresAuth: boolean;
}

const runnerOf = (
  template: string,
  served: (input: Record<string, unknown>) => Served,
): AppRunner => ({
  template,
  runtimes: ['process', 'docker', 'kubernetes', 'slurm'],
  needs: ['volumes', 'http'],
  plan(input, ctx: InstanceContext) {
    const s = served(input);
    return {
      jobs: [
        {
          role: 'main',
          body: jobBody({
            image: s.image,
            command: s.command,
            preset_name: ctx.preset.name,
            env: { ...s.env, HOME: '/home/app' },
            volumes: [{ src_storage_uri: ctx.home, dst_path: '/home/app', read_only: false }],
            http: { port: s.port, health_check_path: s.healthPath, requires_auth: s.requiresAuth },
            restart_policy: 'never',
          }),
        },
      ],
      health: { role: 'main', path: s.healthPath },
    };
  },
  outputs(input, ctx: OutputContext) {
    void input;
    return httpOutputs(ctx.endpoints.main);
  },
});

const str = (v: unknown, fallback: string) => (typeof v === 'string' && v ? v : fallback);

/** `orrery-deploy`: any image or command, served on one HTTP port. */
export const orreryDeployRunner = runnerOf(DEPLOY_TEMPLATE, (input) => {
  const http = (input.http ?? {}) as { port?: unknown; health_path?: unknown; auth?: unknown };
  return {
    image: str(input.image, 'busybox'),
    command: typeof input.command === 'string' && input.command ? input.command : undefined,
    port: typeof http.port === 'number' ? http.port : 8080,
    healthPath: str(http.health_path, '/'),
    env: envOf(input.env),
    requiresAuth: http.auth !== 'no_auth',
  };
});

/** When the app says it was last used: `{"last_activity": ISO time or null}` at `path`. */
const activityAt =
  (path: string): NonNullable<AppRunner['lastActivity']> =>
  async (probe) => {
    const r = await probe('main', path);
    const body = (await r.json()) as { last_activity?: unknown };
    const at = typeof body.last_activity === 'string' ? new Date(body.last_activity) : null;
    return at && !Number.isNaN(at.getTime()) ? at : null;
  };

/** An operator template's `deploy` section, run by the same runner. */
export const deployRunnerFor = (m: AppManifest): AppRunner => ({
  ...deployRunnerOf(m),
  ...(m.deploy!.activity_path ? { lastActivity: activityAt(m.deploy!.activity_path) } : {}),
});

const deployRunnerOf = (m: AppManifest): AppRunner =>
  runnerOf(m.name, (input) => ({
    image: m.deploy!.image,
    command: m.deploy!.command,
    port: m.deploy!.http_port,
    healthPath: m.deploy!.health_path,
    env: { ...m.deploy!.env, ...envOf(input.env) },
    requiresAuth: (input.http as { auth?: unknown } | undefined)?.auth !== 'no_auth',
  }));
