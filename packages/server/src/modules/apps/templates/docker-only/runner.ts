import type { AppEndpoint, AppJob, AppRunner, InstanceContext } from '../../runner.js';
import { homeVolume, jobSpec, requiresAuth } from '../shared.js';

/** A template that runs one container of its public image on the docker runtime. */
export interface ContainerApp {
  template: string;
  image: string;
  /** The HTTP port the image serves on. */
  port: number;
  health: string;
  /**
   * The image's own entrypoint, restated when the command needs a shell (`$HOSTNAME`): with an
   * entrypoint both run under `sh -c`, without one the command is split into its arguments.
   */
  entrypoint?: string;
  /** Arguments to the image's entrypoint, from the input. */
  command?: (input: Record<string, unknown>, ctx: InstanceContext) => string | undefined;
  workingDir?: (input: Record<string, unknown>) => string;
  /** Mounts beyond the home (Apolo's `extra_storage_mounts`), from the input. */
  extraVolumes?: (input: Record<string, unknown>) => AppJob['body']['volumes'];
  /** What the user opens, for an interactive app (AppRunner.interactive). */
  interactive?: AppRunner['interactive'];
  lastActivity?: AppRunner['lastActivity'];
  env?: (input: Record<string, unknown>, ctx: InstanceContext) => Record<string, string>;
  /** Environment from project secrets (`secret:` URIs), from the input. */
  secretEnv?: (input: Record<string, unknown>) => Record<string, string>;
  /** Where the persistent home is mounted in the container, if the app keeps data. */
  dataPath?: string;
  /** The legacy deployer apps (pycharm) take `preset_name` and `http_auth` instead. */
  legacy?: boolean;
  outputs: (input: Record<string, unknown>, e: AppEndpoint | undefined) => Record<string, unknown>;
}

/** A word for `sh`, whatever it holds: for values put into a command that runs in a shell. */
export const shellQuoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The runner of a one-container app: its image, the preset, the home, the HTTP port. */
export function containerRunner(app: ContainerApp): AppRunner {
  return {
    template: app.template,
    runtimes: ['docker', 'kubernetes'],
    needs: app.dataPath ? ['volumes', 'http'] : ['http'],
    plan(input, ctx) {
      const auth = app.legacy ? input.http_auth !== false : requiresAuth(input);
      const body = jobSpec({
        image: app.image,
        command: app.command?.(input, ctx),
        preset_name: ctx.preset.name,
        env: app.env?.(input, ctx) ?? {},
        secret_env: app.secretEnv?.(input) ?? {},
        entrypoint: app.entrypoint,
        working_dir: app.workingDir?.(input),
        volumes: [
          ...(app.dataPath ? [homeVolume(ctx, app.dataPath)] : []),
          ...(app.extraVolumes?.(input) ?? []),
        ],
        http: { port: app.port, health_check_path: app.health, requires_auth: auth },
        restart_policy: 'never',
      });
      return {
        jobs: [{ role: 'main', body }],
        health: { role: 'main', path: app.health },
      };
    },
    outputs: (input, ctx) => app.outputs(input, ctx.endpoints.main),
    lastActivity: app.lastActivity,
    interactive: app.interactive,
  };
}
