import type { AppEndpoint, AppRunner, InstanceContext } from '../../runner.js';
import { jobSpec, requiresAuth } from '../shared.js';

/** A template that runs one container of its public image on the docker runtime. */
export interface ContainerApp {
  template: string;
  image: string;
  /** The HTTP port the image serves on. */
  port: number;
  health: string;
  /** Arguments to the image's entrypoint (shell-split by the docker runtime), from the input. */
  command?: (input: Record<string, unknown>, ctx: InstanceContext) => string | undefined;
  env?: (input: Record<string, unknown>, ctx: InstanceContext) => Record<string, string>;
  /** Environment from project secrets (`secret:` URIs), from the input. */
  secretEnv?: (input: Record<string, unknown>) => Record<string, string>;
  /** Where the persistent home is mounted in the container, if the app keeps data. */
  dataPath?: string;
  /** The legacy deployer apps (pycharm) take `preset_name` and `http_auth` instead. */
  legacy?: boolean;
  outputs: (input: Record<string, unknown>, e: AppEndpoint | undefined) => Record<string, unknown>;
}

/** The runner of a one-container app: its image, the preset, the home, the HTTP port. */
export function containerRunner(app: ContainerApp): AppRunner {
  return {
    template: app.template,
    runtimes: ['docker'],
    plan(input, ctx) {
      const auth = app.legacy ? input.http_auth !== false : requiresAuth(input);
      const body = jobSpec({
        image: app.image,
        command: app.command?.(input, ctx),
        preset_name: ctx.preset.name,
        env: app.env?.(input, ctx) ?? {},
        secret_env: app.secretEnv?.(input) ?? {},
        volumes: app.dataPath
          ? [{ src_storage_uri: ctx.home, dst_path: app.dataPath, read_only: false }]
          : [],
        http: { port: app.port, health_check_path: app.health, requires_auth: auth },
        restart_policy: 'never',
      });
      return { jobs: [{ role: 'main', body }], health: { role: 'main', path: app.health } };
    },
    outputs: (input, ctx) => app.outputs(input, ctx.endpoints.main),
  };
}
