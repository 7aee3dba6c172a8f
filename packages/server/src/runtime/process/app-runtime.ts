import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Orrery's own programs that run inside jobs and the node_modules they load: each app template's
 * `runtime/` folder (the shell's pty server, …, beside the template's runner and definition in
 * `src/modules/apps/templates/<name>/`, docs/apps.md) and the gang's launch agent (`bin/`, beside
 * this file). A job's sandbox sees no checkout, so each folder alone is shown read-only at a fixed
 * path; the programs are Orrery's code, not the user's, and hold no secret. The paths name the
 * sources, not dist/ (which holds no such files): `../../../` is packages/server from both.
 */
const TEMPLATES_HOST = fileURLToPath(
  new URL('../../../src/modules/apps/templates', import.meta.url),
);
const BIN_HOST = fileURLToPath(new URL('../../../src/runtime/process/bin', import.meta.url));
const NODE_MODULES_HOST = fileURLToPath(new URL('../../../../../node_modules', import.meta.url));

/** Where a sandboxed job finds them: Node resolves the programs' imports up to /opt/orrery. */
export const APP_RUNTIME_GUEST = '/opt/orrery/app-runtime';

/** The host folder of the programs that template `name` runs in its jobs. */
export const templateRuntimeHost = (name: string) => join(TEMPLATES_HOST, name, 'runtime');

/** The host path of the gang's launch agent (worker-exec.ts). */
export const WORKER_EXEC_HOST = join(BIN_HOST, 'orrery-worker-exec');
/** Its path in a sandboxed job. */
export const WORKER_EXEC_GUEST = `${APP_RUNTIME_GUEST}/bin/orrery-worker-exec`;

/** Each folder of programs the sandbox shows, host path to guest path; read at each job's start. */
function programFolders(): [string, string][] {
  const templates = existsSync(TEMPLATES_HOST)
    ? readdirSync(TEMPLATES_HOST, { withFileTypes: true }).filter((d) => d.isDirectory())
    : [];
  return [
    ...templates
      .map((d): [string, string] => [templateRuntimeHost(d.name), `${APP_RUNTIME_GUEST}/${d.name}`])
      .filter(([host]) => existsSync(host)),
    [BIN_HOST, `${APP_RUNTIME_GUEST}/bin`],
  ];
}

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

/** The first folder of programs a job's uid cannot bind and what closes it, or null. */
export function programsClosedToJobs(): { folder: string; closed: string } | null {
  for (const [folder] of programFolders()) {
    const closed = closedToJobs(folder);
    if (closed) return { folder, closed };
  }
  return null;
}

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
    ...programFolders(),
    [NODE_MODULES_HOST, '/opt/orrery/node_modules'],
  ];
  return binds
    .filter(([host]) => exists(host))
    .flatMap(([host, guest]) => [onNode ? '--ro-bind-try' : '--ro-bind', host, guest]);
}

/**
 * Outside the sandbox, a folder laid out as the sandbox shows the programs (`<name>/…`, `bin/`),
 * of links to their folders, readable by the jobs' uids. One per checkout and server uid, under
 * the temporary directory; made or completed at each job's start (a template's programs may be
 * installed later, and a cleaner may remove it), and refused when another user owns it; each
 * link is checked, so nothing else in it is ever used. Node follows the links to the sources, so the programs' imports resolve from the
 * checkout as before.
 */
function appRuntimeHostView(): string {
  const uid = process.getuid?.() ?? 0;
  const key = createHash('sha256').update(TEMPLATES_HOST).digest('hex').slice(0, 12);
  const view = join(tmpdir(), `orrery-app-runtime-${uid}-${key}`);
  mkdirSync(view, { recursive: true, mode: 0o755 });
  const made = lstatSync(view);
  if (!made.isDirectory() || made.uid !== uid) {
    throw new Error(`${view} is not this server's own folder of app programs: remove it`);
  }
  // Whatever the server's umask: jobs of other uids read it, and only its owner writes in it.
  chmodSync(view, 0o755);
  for (const [host, guest] of programFolders()) {
    const link = join(view, guest.slice(APP_RUNTIME_GUEST.length + 1));
    if (existsSync(link) && realpathSync(link) === realpathSync(host)) continue;
    rmSync(link, { force: true });
    try {
      symlinkSync(host, link);
    } catch (e) {
      // Another server of this checkout made it at the same moment: its link is the same.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return view;
}

/** `ORRERY_APP_RUNTIME` of a job: the guest path in the sandbox, the host view outside one. */
export const appRuntimeEnv = (sandboxed: boolean) => ({
  ORRERY_APP_RUNTIME: sandboxed ? APP_RUNTIME_GUEST : appRuntimeHostView(),
});
