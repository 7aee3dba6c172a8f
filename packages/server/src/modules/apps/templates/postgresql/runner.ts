import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { runsHostPrograms, type AppRunner, type InstanceContext } from '../../runner.js';
import { homeVolume, jobSpec } from '../shared.js';
import { startScript, type DbUser } from './script.js';

/**
 * PostgreSQL's own port, declared as the job's: the project's jobs reach it through the server's
 * relay for the job, on either runtime (outputs carry its address and port).
 */
const PORT = 5432;
/** The official image for the docker runtime. */
const IMAGE = 'postgres:15';
/** Where the instance's home is mounted on both runtimes; the cluster is its `pgdata`. */
const DATA = '/var/lib/postgresql/data';
const DEFAULT_USERS: DbUser[] = [{ name: 'app', db_names: ['app'] }];

/** Debian's server binaries (`postgresql-15` …), the newest installed; null without any. */
export function postgresBinDir(exists = existsSync): string | null {
  const root = '/usr/lib/postgresql';
  if (!exists(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => exists(`${root}/${v}/bin/postgres`))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? `${root}/${versions[0]}/bin` : null;
}

/** PostgreSQL identifiers the start script may quote as they are (the schema's pattern). */
const NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function usersOf(input: Record<string, unknown>): DbUser[] {
  const config = input.postgres_config as { db_users?: unknown } | undefined;
  const users = Array.isArray(config?.db_users) ? (config.db_users as DbUser[]) : [];
  for (const u of users) {
    if (![u.name, ...(u.db_names ?? [])].every((n) => NAME.test(n))) {
      throw new Error(`Invalid PostgreSQL user or database name in ${JSON.stringify(u)}`);
    }
  }
  return users.length
    ? users.map((u) => ({ name: u.name, db_names: u.db_names ?? [] }))
    : DEFAULT_USERS;
}

/** The project secret holding a user's password: one per instance and user. */
export const passwordKey = (ctx: Pick<InstanceContext, 'name'>, user: string) =>
  `app-${ctx.name}-postgres-${user}-password`;

/**
 * `postgresql`: Debian's PostgreSQL server in one job (the official image on docker), with the
 * users of the input and a generated password each, kept as project secrets and given to the
 * job through `secret_env`. Outputs Apolo's `postgres_users.users[]`.
 */
export const postgresqlRunner: AppRunner = {
  template: 'postgresql',
  runtimes: ['process', 'docker', 'kubernetes', 'slurm'],
  needs: ['volumes', 'http'],
  // The official image carries its own PostgreSQL on docker and kubernetes.
  unavailable: (runtime) =>
    !runsHostPrograms(runtime) || postgresBinDir()
      ? null
      : 'PostgreSQL is not installed (apt-get install postgresql)',
  plan(input, ctx) {
    const users = usersOf(input);
    const secrets = Object.fromEntries(
      users.map((u) => [passwordKey(ctx, u.name), randomBytes(18).toString('base64url')]),
    );
    const secretEnv = Object.fromEntries(
      users.map((u, i) => [`PG_PASSWORD_${i}`, `secret:${passwordKey(ctx, u.name)}`]),
    );
    const onProcess = runsHostPrograms(ctx.runtime);
    const body = jobSpec({
      image: IMAGE,
      command: onProcess
        ? startScript(postgresBinDir() ?? '/usr/lib/postgresql/15/bin', DATA, users)
        : undefined,
      preset_name: ctx.preset.name,
      env: onProcess
        ? {}
        : {
            PGDATA: `${DATA}/pgdata`,
            POSTGRES_USER: users[0].name,
            POSTGRES_DB: users[0].db_names[0] ?? users[0].name,
          },
      secret_env: onProcess ? secretEnv : { POSTGRES_PASSWORD: secretEnv.PG_PASSWORD_0 },
      volumes: [homeVolume(ctx, DATA)],
      // Not HTTP: the port is declared so that it is forwarded, relayed and named.
      http: { port: PORT, requires_auth: true },
      restart_policy: 'never',
    });
    // The job's uid owns the cluster's files: they persist in the home across jobs and uids.
    // Healthy once PostgreSQL answers on its port, which the start script opens last: the users
    // and databases exist by then.
    return {
      jobs: [{ role: 'main', body, ownedVolumes: [DATA] }],
      secrets,
      health: { role: 'main', protocol: 'postgres' },
    };
  },
  outputs(input, ctx) {
    const e = ctx.endpoints.main;
    return {
      postgres_users: {
        users: usersOf(input).map((u) => ({
          user: u.name,
          password: { key: passwordKey(ctx, u.name), __type__: 'ApoloSecret' },
          host: e?.internal.host ?? null,
          port: e?.internal.port ?? PORT,
          pgbouncer_host: null,
          pgbouncer_port: null,
          dbname: u.db_names[0] ?? null,
          jdbc_uri: e
            ? `jdbc:postgresql://${e.internal.host}:${e.internal.port}/${u.db_names[0] ?? ''}`
            : null,
          pgbouncer_jdbc_uri: null,
          pgbouncer_uri: null,
          uri: e
            ? `postgresql://${u.name}@${e.internal.host}:${e.internal.port}/${u.db_names[0] ?? ''}`
            : null,
          postgres_uri: null,
          __type__: 'CrunchyPostgresUserCredentials',
        })),
      },
    };
  },
};
