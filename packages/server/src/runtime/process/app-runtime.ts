import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
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

/**
 * What keeps a job's uid from binding `path`: the path itself when others cannot read it, else
 * the first directory on the way they cannot search; null when nothing does. bwrap runs as that
 * uid, and a checkout only root can enter (a clone under /root) would make every job fail rather
 * than only the apps that need the programs.
 */
export function closedToJobs(path: string): string | null {
  try {
    if ((statSync(path).mode & 0o005) !== 0o005) return path;
    for (let dir = dirname(path); ; dir = dirname(dir)) {
      if ((statSync(dir).mode & 0o001) === 0) return dir;
      if (dir === dirname(dir)) return null;
    }
  } catch {
    return path;
  }
}

export const reachableByJobs = (path: string) => closedToJobs(path) === null;

const present = (p: string) => existsSync(p) && reachableByJobs(p);

/**
 * bwrap binds for the sandbox: only those present and reachable by the job's uid. On a Slurm
 * node (`onNode`) bwrap skips them if missing: the server's checkout may not be there at the same
 * path, and a job that runs no app program must not fail for that.
 */
export function appRuntimeBinds(
  exists: (p: string) => boolean = present,
  onNode = false,
): string[] {
  const binds: [string, string][] = [
    [APP_RUNTIME_HOST, APP_RUNTIME_GUEST],
    [NODE_MODULES_HOST, '/opt/orrery/node_modules'],
  ];
  return binds
    .filter(([host]) => exists(host))
    .flatMap(([host, guest]) => [onNode ? '--ro-bind-try' : '--ro-bind', host, guest]);
}

/** `ORRERY_APP_RUNTIME` of a job: the guest path in the sandbox, the host path outside one. */
export const appRuntimeEnv = (sandboxed: boolean) => ({
  ORRERY_APP_RUNTIME: sandboxed ? APP_RUNTIME_GUEST : APP_RUNTIME_HOST,
});
