import { defineConfig } from 'drizzle-kit';

// Every area keeps its tables in a `tables.ts` beside its code; the core ones (people,
// organizations, projects, jobs, storage) are in db/schema.ts. db/tables-match-migrations.test.ts
// checks that generating from these files finds nothing the migrations have not made.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/db/schema.ts', './src/**/tables.ts'],
  out: './drizzle',
});
