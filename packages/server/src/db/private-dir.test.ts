import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from './client.js';

const base = mkdtempSync(join(tmpdir(), 'orrery-pgdata-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Every entry under `dir` that a group or other could read, write or enter. */
function open(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((p) => join(dir, p))
    .filter((p) => statSync(p).mode & 0o077);
}

it("keeps the embedded database the server user's alone, under a umask of 0 and from an older install", async () => {
  const dataDir = join(base, 'data');
  // What an older installation left: the directory and a file open to everyone.
  mkdirSync(join(dataDir, 'pgdata'), { recursive: true });
  chmodSync(join(dataDir, 'pgdata'), 0o777);
  writeFileSync(join(dataDir, 'pgdata', 'old'), 'x', { mode: 0o666 });
  chmodSync(join(dataDir, 'pgdata', 'old'), 0o666);
  const umask = process.umask(0);
  try {
    const database = await openDatabase({ dataDir });
    await database.close();
  } finally {
    process.umask(umask);
  }
  const pgdata = join(dataDir, 'pgdata');
  expect(statSync(pgdata).mode & 0o777).toBe(0o700);
  expect(readdirSync(pgdata).length).toBeGreaterThan(5);
  expect(open(pgdata)).toEqual([]);
});
