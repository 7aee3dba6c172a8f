import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS } from './client.js';

const SRC = fileURLToPath(new URL('..', import.meta.url));

/** The files drizzle.config.ts reads: db/schema.ts and every area's tables.ts. */
async function tables(): Promise<Record<string, unknown>> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((f) => f === join('db', 'schema.ts') || f.endsWith(`${'/'}tables.ts`))
    .sort();
  const all: Record<string, unknown> = {};
  for (const f of files) Object.assign(all, await import(pathToFileURL(join(SRC, f)).href));
  return all;
}

/** Columns, indexes and constraints of the public schema, by definition rather than by name. */
const CATALOG = `
select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' nullable=' || is_nullable
       || ' default=' || coalesce(column_default, '') as d
  from information_schema.columns where table_schema = 'public'
union all
select 'index ' || regexp_replace(indexdef, 'INDEX \\S+ ON', 'INDEX ON')
  from pg_indexes where schemaname = 'public'
union all
select 'constraint ' || conrelid::regclass || ' ' || pg_get_constraintdef(oid)
  from pg_constraint where connamespace = 'public'::regnamespace
order by 1`;

/**
 * What a migration makes that drizzle's table builders cannot say: the usage query's covering
 * index (INCLUDE columns, so that its rows come from the index alone).
 */
const ONLY_IN_MIGRATIONS = [
  'index CREATE INDEX ON public.usage_records USING btree (org_name, started_at) INCLUDE (cluster_name, project_name, category, user_id, credits)',
];

async function catalog(db: PGlite): Promise<string[]> {
  return (await db.query<{ d: string }>(CATALOG)).rows.map((r) => r.d);
}

describe('tables in TypeScript and the migrations', () => {
  it('the migrations make exactly the tables, indexes and constraints the TypeScript declares', async () => {
    const { generateDrizzleJson, generateMigration } = await import('drizzle-kit/api');
    const fromTs = await generateMigration(
      generateDrizzleJson({}),
      generateDrizzleJson(await tables()),
    );
    const migrated = new PGlite();
    const declared = new PGlite();
    try {
      await migrate(drizzle({ client: migrated }), { migrationsFolder: MIGRATIONS });
      // Foreign keys last: drizzle orders them before the unique indexes they reference.
      const fk = (s: string) => s.includes('FOREIGN KEY');
      for (const s of [...fromTs.filter((s) => !fk(s)), ...fromTs.filter(fk)])
        await declared.exec(s);
      const a = await catalog(migrated);
      const b = await catalog(declared);
      expect({
        onlyInMigrations: a.filter((d) => !b.includes(d)),
        onlyInTypeScript: b.filter((d) => !a.includes(d)),
      }).toEqual({ onlyInMigrations: ONLY_IN_MIGRATIONS, onlyInTypeScript: [] });
    } finally {
      await migrated.close();
      await declared.close();
    }
  });

  it('`drizzle-kit generate` has nothing to write: the last snapshot is the TypeScript tables', async () => {
    const { generateDrizzleJson, generateMigration } = await import('drizzle-kit/api');
    const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as {
      entries: { idx: number; tag: string }[];
    };
    const last = journal.entries.at(-1)!;
    const snapshot = JSON.parse(
      readFileSync(
        join(MIGRATIONS, 'meta', `${String(last.idx).padStart(4, '0')}_snapshot.json`),
        'utf8',
      ),
    ) as Parameters<typeof generateMigration>[0];
    expect(await generateMigration(snapshot, generateDrizzleJson(await tables()))).toEqual([]);
  });
});
