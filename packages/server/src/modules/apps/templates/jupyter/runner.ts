import { existsSync } from 'node:fs';
import type { AppRunner } from '../../runner.js';
import { appProgramsUnavailable, appUrl, homeVolume, jobSpec, requiresAuth } from '../shared.js';

/** Apolo's Jupyter port. */
const PORT = 8888;
/** Where the persistent home is mounted: the notebook directory and HOME (user packages). */
export const NOTEBOOKS = '/root/notebooks';
const NOTEBOOK = '/usr/bin/jupyter-notebook';

interface Kernel {
  execution_state?: string;
  last_activity?: string;
}

/**
 * `jupyter`: Debian's classic Notebook (not JupyterLab, which Debian does not package) in one
 * job on the process runtime, its notebooks and `pip install --user` packages in the instance's
 * home, served at the root of the job's own host (runtime/start.mjs beside this file).
 */
export const jupyterRunner: AppRunner = {
  template: 'jupyter',
  interactive: 'notebook',
  runtimes: ['process', 'slurm'],
  needs: ['volumes', 'http'],
  unavailable: () =>
    existsSync(NOTEBOOK)
      ? appProgramsUnavailable()
      : 'The Jupyter Notebook is not installed (apt-get install --no-install-recommends jupyter-notebook python3-ipykernel)',
  plan(input, ctx) {
    const body = jobSpec({
      image: 'debian:bookworm',
      command: 'exec node "$ORRERY_APP_RUNTIME/jupyter/start.mjs"',
      preset_name: ctx.preset.name,
      working_dir: NOTEBOOKS,
      env: {
        HOME: NOTEBOOKS,
        JUPYTER_NOTEBOOK_DIR: NOTEBOOKS,
        PYTHONUSERBASE: `${NOTEBOOKS}/.local`,
      },
      volumes: [homeVolume(ctx, NOTEBOOKS)],
      http: { port: PORT, health_check_path: '/api/status', requires_auth: requiresAuth(input) },
      restart_policy: 'never',
    });
    return { jobs: [{ role: 'main', body }], health: { role: 'main', path: '/api/status' } };
  },
  outputs(_input, ctx) {
    return { app_url: appUrl(ctx.endpoints.main, '/tree') };
  },
  /**
   * Kernel activity, not the server's `last_activity`: an open tab polls the server (sessions,
   * contents) every few seconds and would keep it alive forever. A busy kernel is active now;
   * otherwise the last message of any kernel counts, and without kernels the server's start.
   */
  async lastActivity(probe) {
    const kernels = await probe('main', '/api/kernels').catch(() => null);
    if (!kernels?.ok) return null;
    const list = (await kernels.json().catch(() => null)) as Kernel[] | null;
    if (!Array.isArray(list)) return null;
    if (list.some((k) => k.execution_state === 'busy')) return new Date();
    const times = list
      .map((k) => Date.parse(k.last_activity ?? ''))
      .filter((t) => !Number.isNaN(t));
    if (times.length) return new Date(Math.max(...times));
    const status = await probe('main', '/api/status').catch(() => null);
    const body = status?.ok
      ? ((await status.json().catch(() => null)) as { started?: string })
      : null;
    const started = Date.parse(body?.started ?? '');
    return Number.isNaN(started) ? null : new Date(started);
  },
};
