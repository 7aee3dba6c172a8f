import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Orrery's own programs that app templates run inside jobs (the shell's pty server, …) and the
 * node_modules they load. A job's sandbox sees no checkout, so both are shown read-only at fixed
 * paths; the programs are Orrery's code, not the user's, and hold no secret. Same depth from
 * src/ and dist/, so the paths hold for both.
 */
export const APP_RUNTIME_HOST = fileURLToPath(new URL('../../../app-runtime', import.meta.url));
const NODE_MODULES_HOST = fileURLToPath(new URL('../../../../../node_modules', import.meta.url));

/** Where a sandboxed job finds them: Node resolves the programs' imports up to /opt/orrery. */
export const APP_RUNTIME_GUEST = '/opt/orrery/app-runtime';

/** bwrap binds for the sandbox (only those present: an install without the programs has none). */
export function appRuntimeBinds(exists: (p: string) => boolean = existsSync): string[] {
  const binds: [string, string][] = [
    [APP_RUNTIME_HOST, APP_RUNTIME_GUEST],
    [NODE_MODULES_HOST, '/opt/orrery/node_modules'],
  ];
  return binds
    .filter(([host]) => exists(host))
    .flatMap(([host, guest]) => ['--ro-bind', host, guest]);
}

/** `ORRERY_APP_RUNTIME` of a job: the guest path in the sandbox, the host path outside one. */
export const appRuntimeEnv = (sandboxed: boolean) => ({
  ORRERY_APP_RUNTIME: sandboxed ? APP_RUNTIME_GUEST : APP_RUNTIME_HOST,
});
