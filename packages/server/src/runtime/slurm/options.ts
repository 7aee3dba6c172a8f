import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { z } from 'zod';

/** The slurm runtime's settings (the README's configuration table, ORRERY_SLURM_*). */
export interface SlurmOptions {
  /** How the server talks to Slurm: its commands (sbatch, squeue…) or slurmrestd. */
  api: 'commands' | 'rest';
  /** slurm.conf for the commands; unset: the commands' own default (/etc/slurm/slurm.conf). */
  conf?: string;
  /** slurmrestd's base URL, for `rest`. */
  restUrl?: string;
  /** The HS256 key slurmctld checks JWTs with (AuthAltParameters=jwt_key=…), for `rest`. */
  jwtKeyFile?: string;
  /** The unprivileged user jobs are submitted as, and run as on the nodes. */
  user: string;
  /** A directory every node sees at the same path: job scripts, logs and volumes live under it. */
  sharedDir: string;
}

export const SLURM_ENV = {
  ORRERY_SLURM_API: z.enum(['commands', 'rest']).default('commands'),
  ORRERY_SLURM_CONF: z.string().min(1).optional(),
  ORRERY_SLURM_REST_URL: z.string().url().optional(),
  ORRERY_SLURM_JWT_KEY_FILE: z.string().min(1).optional(),
  ORRERY_SLURM_USER: z
    .string()
    .regex(/^[a-z_][a-z0-9_-]*$/, 'must be a user name')
    .refine((u) => u !== 'root', 'must not be root: jobs run as this user on the nodes')
    .optional(),
  ORRERY_SLURM_SHARED_DIR: z.string().startsWith('/', 'must be an absolute path').optional(),
};

type SlurmEnv = z.infer<z.ZodObject<typeof SLURM_ENV>>;

/**
 * The settings, or undefined when the slurm runtime is not configured. What `kind=slurm` needs
 * and lacks is checked when the driver connects (select.ts), with the variable's name.
 */
export function slurmOptions(e: SlurmEnv): Partial<SlurmOptions> & { api: SlurmOptions['api'] } {
  return {
    api: e.ORRERY_SLURM_API,
    conf: e.ORRERY_SLURM_CONF,
    restUrl: e.ORRERY_SLURM_REST_URL?.replace(/\/$/, ''),
    jwtKeyFile: e.ORRERY_SLURM_JWT_KEY_FILE,
    user: e.ORRERY_SLURM_USER,
    sharedDir: e.ORRERY_SLURM_SHARED_DIR,
  };
}

/**
 * Why the server must not start, or null: the embedded database (PGlite, `<data dir>/pgdata`)
 * inside the shared directory would be on a share every node mounts, readable and writable by
 * the service user's jobs and by any account there (the administrator's password hash is in its
 * WAL). Orrery's own state stays off the nodes: with Slurm, a PostgreSQL database.
 */
export function sharedDatabaseRefusal(e: {
  ORRERY_RUNTIME: string;
  ORRERY_DATA_DIR: string;
  ORRERY_SLURM_SHARED_DIR?: string;
  DATABASE_URL?: string;
}): string | null {
  if (e.ORRERY_RUNTIME !== 'slurm' || e.DATABASE_URL || !e.ORRERY_SLURM_SHARED_DIR) return null;
  const pgdata = resolve(e.ORRERY_DATA_DIR, 'pgdata');
  const shared = resolve(e.ORRERY_SLURM_SHARED_DIR);
  const inside = relative(shared, pgdata);
  if (inside.startsWith('..') || resolve(shared, inside) !== pgdata) return null;
  return (
    `ORRERY_DATA_DIR: the embedded database (${pgdata}) would lie in ORRERY_SLURM_SHARED_DIR ` +
    `(${shared}), which every Slurm node mounts and the jobs' service user can read and write; ` +
    'set DATABASE_URL to a PostgreSQL database (docs/operations.md, On Slurm)'
  );
}

/** The complete settings, or an error naming the first variable `kind=slurm` still needs. */
export function requireSlurmOptions(
  o: Partial<SlurmOptions> & { api: SlurmOptions['api'] },
): SlurmOptions {
  const need = (value: string | undefined, name: string): string => {
    if (!value) throw new Error(`ORRERY_RUNTIME=slurm needs ${name}`);
    return value;
  };
  const user = need(o.user, 'ORRERY_SLURM_USER (the unprivileged user jobs run as)');
  const sharedDir = need(o.sharedDir, 'ORRERY_SLURM_SHARED_DIR (a directory every node sees)');
  if (o.api === 'rest') {
    need(o.restUrl, 'ORRERY_SLURM_REST_URL with ORRERY_SLURM_API=rest');
    need(o.jwtKeyFile, 'ORRERY_SLURM_JWT_KEY_FILE with ORRERY_SLURM_API=rest');
  }
  return { ...o, user, sharedDir };
}

/** The service user's uid and primary gid, from this machine's /etc/passwd (the nodes' match). */
export function passwdIds(user: string): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.split(':')[0] === user);
  if (!line) throw new Error(`ORRERY_SLURM_USER: no user ${user} on this machine`);
  const [, , uid, gid] = line.split(':').map(Number);
  return { uid, gid };
}
