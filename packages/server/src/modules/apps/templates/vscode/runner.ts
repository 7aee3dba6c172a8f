import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { templateRuntimeHost } from '../../../../runtime/process/app-runtime.js';
import type { AppRunner } from '../../runner.js';
import {
  appProgramsUnavailable,
  appUrl,
  homeVolume,
  jobSpec,
  mlflowEnv,
  requiresAuth,
  storageMounts,
} from '../shared.js';

/** Apolo's code-server port. */
const PORT = 8080;
/** The persistent home: HOME, settings, extensions, and the project folder opened. */
export const VSCODE_HOME = '/home/coder';
/** Where scripts/install-code-server.mjs puts code-server 4.100.3. */
export const CODE_SERVER = join(
  templateRuntimeHost('vscode'),
  'code-server',
  'out',
  'node',
  'entry.js',
);

/**
 * `vscode`: code-server in one job on the process runtime, once the operator has run
 * scripts/install-code-server.mjs (code-server is 308 MB and needs native builds, so it is not
 * one of Orrery's dependencies). Without auth of its own: the ingress authenticates.
 */
export const vscodeRunner: AppRunner = {
  template: 'vscode',
  interactive: 'IDE',
  runtimes: ['process'],
  needs: ['volumes', 'http'],
  unavailable: () =>
    existsSync(CODE_SERVER)
      ? appProgramsUnavailable()
      : 'code-server is not installed: the operator runs node scripts/install-code-server.mjs',
  plan(input, ctx) {
    const body = jobSpec({
      image: 'ghcr.io/neuro-inc/vscode-server',
      command: [
        'mkdir -p "$HOME/project" &&',
        'exec node "$ORRERY_APP_RUNTIME/vscode/code-server/out/node/entry.js"',
        '--auth none --disable-telemetry --disable-update-check --disable-workspace-trust',
        '--bind-addr "0.0.0.0:$PORT" "$HOME/project"',
      ].join(' '),
      preset_name: ctx.preset.name,
      working_dir: VSCODE_HOME,
      env: { HOME: VSCODE_HOME, ...mlflowEnv(input.mlflow_integration) },
      volumes: [homeVolume(ctx, VSCODE_HOME), ...storageMounts(input.extra_storage_mounts)],
      http: { port: PORT, health_check_path: '/healthz', requires_auth: requiresAuth(input) },
      restart_policy: 'never',
    });
    return { jobs: [{ role: 'main', body }], health: { role: 'main', path: '/healthz' } };
  },
  outputs(_input, ctx) {
    return { app_url: appUrl(ctx.endpoints.main) };
  },
  /** The IDE's heartbeat: code-server beats while a window is used, not for an idle tab. */
  async lastActivity(probe) {
    const res = await probe('main', '/healthz').catch(() => null);
    if (!res?.ok) return null;
    const body = (await res.json().catch(() => null)) as { lastHeartbeat?: number } | null;
    return typeof body?.lastHeartbeat === 'number' && body.lastHeartbeat > 0
      ? new Date(body.lastHeartbeat)
      : null;
  },
};
