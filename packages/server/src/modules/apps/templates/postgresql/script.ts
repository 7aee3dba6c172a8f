/** A database user of the input (Apolo's `postgres_config.db_users[]`). */
export interface DbUser {
  name: string;
  db_names: string[];
}

/**
 * The job's command on the process runtime. The cluster lives in `pgdata` of the instance's home,
 * mounted at `dataDir` and owned by the job's uid (runner.ts `ownedVolumes`: PostgreSQL insists
 * on owning its data directory), so a restart or a reinstall under the same name finds it; it is
 * made on the first start only. Users and databases are made, and passwords set, over the Unix
 * socket before PostgreSQL listens on the job's port: the endpoint (reported once the port
 * listens) means ready. Passwords come from `PG_PASSWORD_<i>` (secret_env) and reach SQL as psql
 * variables.
 */
export function startScript(bin: string, dataDir: string, users: DbUser[]): string {
  const sql = users.flatMap((u, i) => [
    `\\set u '${u.name}'`,
    `\\set pw \`printf %s "$PG_PASSWORD_${i}"\``,
    `SELECT format('CREATE ROLE %I LOGIN', :'u') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'u') \\gexec`,
    `ALTER ROLE :"u" PASSWORD :'pw';`,
    ...u.db_names.flatMap((db) => [
      `SELECT format('CREATE DATABASE %I OWNER %I', '${db}', :'u') WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '${db}') \\gexec`,
    ]),
  ]);
  return [
    'set -e',
    `export PATH=${bin}:$PATH PGDATA=${dataDir}/pgdata`,
    'if [ ! -s "$PGDATA/PG_VERSION" ]; then',
    '  rm -rf "$PGDATA"',
    '  initdb -U postgres --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null',
    `  printf 'host all all 0.0.0.0/0 scram-sha-256\\nhost all all ::/0 scram-sha-256\\n' >> $PGDATA/pg_hba.conf`,
    'fi',
    // A job of the project that mounted the home as an ordinary volume made it group-writable,
    // which PostgreSQL refuses; the lock of a previous job that was killed names a pid of its
    // own namespace, and no other server uses the directory now that this job owns it.
    'chmod 700 "$PGDATA"',
    'rm -f "$PGDATA/postmaster.pid"',
    'pg_ctl -w -s -o "-c listen_addresses=\'\' -k /tmp" start',
    `psql -q -h /tmp -U postgres -d postgres -v ON_ERROR_STOP=1 <<'SQL'\n${sql.join('\n')}\nSQL`,
    'pg_ctl -w -s -m fast stop',
    'exec postgres -c listen_addresses=\'*\' -p "${PORT:-5432}" -k /tmp',
  ].join('\n');
}
