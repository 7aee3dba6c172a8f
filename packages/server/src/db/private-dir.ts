import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The embedded database's directory, made or kept 0700: its files (PGlite writes them 0666 less
 * the umask, so 0666 under a umask of 0) are then the server user's alone, whatever their modes.
 */
export function keepPrivate(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/**
 * Takes group and other access off every entry under `dir` (never through a link): files 0600,
 * directories 0700, as the server made them for itself. Run once the database has written its
 * files, so that an older installation's 0666 ones are closed too.
 */
export function closeTree(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    if (st.isSymbolicLink()) continue;
    if (st.mode & 0o077) chmodSync(path, st.mode & 0o7700);
    if (st.isDirectory()) closeTree(path);
  }
}
