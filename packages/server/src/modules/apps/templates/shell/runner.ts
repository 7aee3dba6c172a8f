import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { templateRuntimeHost } from '../../../../runtime/process/app-runtime.js';
import { sandboxPtys } from '../../../../runtime/process/ptys.js';
import { BWRAP } from '../../../../runtime/process/sandbox.js';
import type { AppRunner } from '../../runner.js';
import {
  activityAt,
  appProgramsUnavailable,
  appUrl,
  homeVolume,
  jobSpec,
  requiresAuth,
} from '../shared.js';

/** Apolo's shell port (ttyd's), kept so that outputs read the same on both runtimes. */
const PORT = 7681;
/** Where the persistent home is mounted, as in Apolo's shell: the terminal starts there. */
export const SHELL_HOME = '/var/storage';
/** Apolo's shell image (ttyd + screen) for the docker runtime. */
const IMAGE = 'ghcr.io/neuro-inc/web-shell';
const PROGRAM = join(templateRuntimeHost('shell'), 'server.mjs');

/**
 * `shell`: a login shell on a pty inside the instance's job, served to xterm in the browser over
 * a WebSocket (runtime/server.mjs beside this file) on the process runtime; Apolo's web-shell image on
 * docker. Its working directory and HOME are the instance's persistent home.
 */
export const shellRunner: AppRunner = {
  template: 'shell',
  interactive: 'terminal',
  runtimes: ['process', 'docker', 'kubernetes'],
  needs: ['volumes', 'http'],
  unavailable(runtime) {
    // Apolo's web-shell image carries its own terminal server on docker and kubernetes.
    if (runtime !== 'process') return null;
    if (!existsSync(PROGRAM)) return `The shell's program is missing (${PROGRAM})`;
    if (existsSync(BWRAP) && !sandboxPtys()) {
      return 'Terminals in the job sandbox need Debian python3 (apt-get install python3-minimal)';
    }
    return appProgramsUnavailable();
  },
  plan(input, ctx) {
    const onProcess = ctx.runtime === 'process';
    const body = jobSpec({
      image: IMAGE,
      // The sandbox shows Orrery's app programs at $ORRERY_APP_RUNTIME (runtime/process/app-runtime.ts).
      command: onProcess ? 'exec node "$ORRERY_APP_RUNTIME/shell/server.mjs"' : undefined,
      preset_name: ctx.preset.name,
      working_dir: SHELL_HOME,
      env: {
        HOME: SHELL_HOME,
        SHELL_HOME,
        WORKDIR: SHELL_HOME,
        TERM: 'xterm-256color',
        LANG: 'C.UTF-8',
      },
      volumes: [homeVolume(ctx, SHELL_HOME)],
      http: { port: PORT, health_check_path: '/', requires_auth: requiresAuth(input) },
      restart_policy: 'never',
    });
    return { jobs: [{ role: 'main', body }], health: { role: 'main', path: '/' } };
  },
  outputs(_input, ctx) {
    return { app_url: appUrl(ctx.endpoints.main) };
  },
  // Terminal input or output; an open idle tab sends neither.
  lastActivity: (probe) => activityAt(probe, 'main', '/activity', 'last_activity'),
};
