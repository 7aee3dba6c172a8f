import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SETPRIV } from './launch.js';
import { BWRAP } from './sandbox.js';

/** ORRERY_UNSANDBOXED_JOBS: whether jobs run at all without the full sandbox. */
export type UnsandboxedJobs = 'refuse' | 'allow';

/** How this host runs jobs: in the full sandbox, not isolated (allowed), or not at all. */
export interface JobIsolation {
  /** bwrap wraps each job. */
  sandboxed: boolean;
  /**
   * Outside the sandbox, a root server drops each job to a uid of its own (setpriv), in no group
   * but its own: never root, never the server's user.
   */
  ownUidOutside: boolean;
  /** Why no job runs (job creation is refused with it); absent when jobs run. */
  refusal?: string;
  /** Jobs run, but are not isolated from each other and the host: said to every user. */
  notIsolated?: string;
}

/**
 * The full sandbox is bubblewrap run by a root server that gives each job a uid of its own
 * (setpriv). Anything less leaves a job's code running as the server's user, or as root: such
 * jobs are refused unless the operator allows them for a one-person machine, and even then a
 * job never runs as root (docs/runtimes.md, Without the sandbox).
 */
export function jobIsolation(o: {
  /** false: bubblewrap is not used even when installed (tests of that path). */
  sandbox: boolean;
  /** Default `refuse`. */
  setting?: UnsandboxedJobs;
  root?: boolean;
  exists?: (path: string) => boolean;
}): JobIsolation {
  const exists = o.exists ?? existsSync;
  const root = o.root ?? process.getuid?.() === 0;
  const sandboxed = o.sandbox && exists(BWRAP);
  const setpriv = exists(SETPRIV);
  const noBwrap = o.sandbox
    ? `bubblewrap (${BWRAP}) is not installed`
    : 'the sandbox is turned off';
  if (root && !setpriv) {
    return {
      sandboxed,
      ownUidOutside: false,
      refusal: `Jobs are refused on this installation: setpriv (${SETPRIV}, util-linux) is not installed, so the server, which is root, cannot give a job a uid of its own and the job would run as root. Install util-linux; ORRERY_UNSANDBOXED_JOBS=allow never runs jobs as root.`,
    };
  }
  if (sandboxed && root) return { sandboxed, ownUidOutside: false };
  // What a job would share, said in the present where it runs and in the conditional where not.
  const allowed = o.setting === 'allow';
  const [runs, sees, can] = allowed ? ['runs', 'sees', 'can'] : ['would run', 'would see', 'could'];
  const [cause, consequence] = !sandboxed
    ? root
      ? [
          noBwrap,
          `each job ${runs} on the host system under a uid of its own, and ${sees} the host's files, network and processes`,
        ]
      : [
          `${noBwrap} and the server is not root`,
          `each job ${runs} on the host system as the server's user, with everything that user can read and change, the data directory included`,
        ]
    : [
        'the server is not root, so jobs cannot get a uid of their own',
        `each job ${runs} in its sandbox as the server's user, and jobs ${can} signal each other`,
      ];
  if (allowed) {
    return {
      sandboxed,
      ownUidOutside: !sandboxed && root,
      notIsolated: `Jobs are not isolated on this installation (ORRERY_UNSANDBOXED_JOBS=allow): ${cause}, so ${consequence}. Run only code you trust.`,
    };
  }
  return {
    sandboxed,
    ownUidOutside: false,
    refusal: `Jobs are refused on this installation, as they would not be isolated: ${cause}, so ${consequence}. An administrator can install bubblewrap and run the server as root, or set ORRERY_UNSANDBOXED_JOBS=allow on a one-person machine.`,
  };
}

/** `setpriv` down to a uid of its own with no group but its own, no capabilities, no_new_privs. */
export function asOwnUser(uid: number): string[] {
  return [
    SETPRIV,
    `--reuid=${uid}`,
    `--regid=${uid}`,
    '--clear-groups',
    '--bounding-set=-all',
    '--inh-caps=-all',
    '--no-new-privs',
    '--',
  ];
}

/**
 * Homes of jobs outside the sandbox, outside the data directory: /run is root's alone to make
 * entries in, so no one can plant a link there, and the job's uid needs to cross nothing of the
 * data directory (which `closeDataDir` shuts to it).
 */
const HOMES = '/run/orrery/homes';

export const homeOf = (uid: number) => join(HOMES, String(uid));

/** A fresh, empty home (and working directory) for the job's uid, reachable by it alone. */
export async function makeHome(uid: number): Promise<string> {
  await mkdir(HOMES, { recursive: true });
  await Promise.all(['/run/orrery', HOMES].map((d) => chmod(d, 0o711)));
  const home = homeOf(uid);
  // A previous job of the same uid may have left files: they are not this job's.
  await rm(home, { recursive: true, force: true });
  await mkdir(home, { mode: 0o700 });
  await chown(home, uid, uid);
  return home;
}

/**
 * The data directory holds the secrets key, the control socket (which mints tokens) and every
 * tenant's files: a job's uid, an "other" to it, may not even cross it.
 */
export async function closeDataDir(dataDir: string): Promise<void> {
  const st = await stat(dataDir).catch(() => null);
  if (st && (st.mode & 0o007) !== 0) await chmod(dataDir, st.mode & 0o7770);
}

/** A root server's job outside the sandbox: the data directory closed to it, a home of its own. */
export async function ownHome(dataDir: string, uid: number): Promise<string> {
  await closeDataDir(dataDir);
  return makeHome(uid);
}
