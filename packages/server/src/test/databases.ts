import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { MIGRATIONS, openDatabase, type PgliteAssets } from '../db/client.js';

// Fresh databases for test servers that start migrated: running the migrations (and, on PGlite,
// initdb) again for each of the hundreds of servers a run starts took most of its time.

/**
 * PGlite's initdb takes 4–7 s on two busy cores, and tests start hundreds of in-memory servers.
 * They start from one migrated data directory instead (about 2 s to load), made the first time a
 * run needs it and kept in the temp directory under a name that changes with the migrations and
 * PGlite's version. Each server still runs the migrations, which then find nothing to do.
 */
let seed: Promise<Blob> | undefined;
export function migratedPgliteSeed(): Promise<Blob> {
  return (seed ??= readOrMakeSeed());
}

async function readOrMakeSeed(): Promise<Blob> {
  const file = join(tmpdir(), `orrery-pglite-seed-${seedKey()}.tar`);
  const cached = await readFile(file).catch(() => null);
  if (cached) return new Blob([cached]);
  const client = new PGlite();
  try {
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS });
    const dump = await client.dumpDataDir('none');
    // Test files run in parallel: each writes its own file and the rename is atomic.
    const partial = `${file}.${process.pid}.${Date.now()}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  } finally {
    await client.close();
  }
}

/**
 * PGlite's WebAssembly module compiled once and its file bundle read once, for every in-process
 * server of this worker (its files share it: vitest.config.ts): 0.4 s of each start, measured.
 */
let assets: Promise<PgliteAssets> | undefined;
export function pgliteAssets(): Promise<PgliteAssets> {
  return (assets ??= (async () => {
    const require = createRequire(import.meta.url);
    const dist = dirname(require.resolve('@electric-sql/pglite'));
    const [wasm, data] = await Promise.all([
      readFile(join(dist, 'pglite.wasm')),
      readFile(join(dist, 'pglite.data')),
    ]);
    return { wasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
  })());
}

function seedKey(): string {
  const hash = createHash('sha256');
  // The package's entry (its version is in it): package.json is not among its exports.
  hash.update(readFileSync(createRequire(import.meta.url).resolve('@electric-sql/pglite')));
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, e.name);
      hash.update(path.slice(MIGRATIONS.length));
      if (e.isDirectory()) walk(path);
      else hash.update(readFileSync(path));
    }
  };
  walk(MIGRATIONS);
  return hash.digest('hex').slice(0, 16);
}

/**
 * A new database on the PostgreSQL server of TEST_DATABASE_URL, copied from a migrated template
 * that the first test of the run makes (under an advisory lock: test files run in parallel).
 */
export async function freshPostgresDatabase(
  base: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `orrery_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const template = await migratedTemplate(base);
  await withAdmin(base, (c) => c.query(`create database ${name} template ${template}`));
  return {
    url: databaseUrl(base, name),
    drop: () =>
      withAdmin(base, async (c) => {
        await c.query(`drop database if exists ${name} with (force)`);
      }),
  };
}

let template: Promise<string> | undefined;
function migratedTemplate(base: string): Promise<string> {
  return (template ??= makeTemplate(base));
}

async function makeTemplate(base: string): Promise<string> {
  const name = `orrery_template_${seedKey()}`;
  await withAdmin(base, async (c) => {
    await c.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      const found = await c.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount) return;
      // Made under another name and renamed once migrated, so that no one copies a half-made one.
      const partial = `${name}_partial`;
      await c.query(`drop database if exists ${partial} with (force)`);
      await c.query(`create database ${partial}`);
      const db = await openDatabase({ url: databaseUrl(base, partial), dataDir: null });
      await db.close();
      await c.query(`alter database ${partial} rename to ${name}`);
    } finally {
      await c.query('select pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
  return name;
}

async function withAdmin<T>(base: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}
