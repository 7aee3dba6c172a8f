import { lstat, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { asBlobError, blobError, type Key } from './backend.js';

/**
 * Maps keys onto real paths below a root, refusing any that a symlink leads out of its jail.
 *
 * The jail of a key is the directory of its first `jailDepth` segments (a project's storage):
 * jobs write into storage through bind mounts and may plant symlinks there, so a link to `/etc`
 * or to another project's files must never be followed by the server.
 */
export class PathJail {
  constructor(
    readonly root: string,
    readonly jailDepth: number,
  ) {}

  /** The key's path as written, without resolving anything (for creating the jail itself). */
  plain(key: Key): string {
    return join(this.root, ...key);
  }

  /**
   * The real path of `key`, following symlinks that stay inside the jail. Segments that do not
   * exist yet are appended to the deepest existing ancestor, so creating below it is safe too.
   */
  async follow(key: Key): Promise<string> {
    const jail = await this.jailOf(key);
    // The jail itself (a project's root, the most listed directory) is resolved already.
    if (key.length <= this.jailDepth) return jail;
    let existing = key.length;
    let made = 0;
    let base: string;
    for (;;) {
      try {
        base = await realpath(join(this.root, ...key.slice(0, existing)));
        if (!inside(base, jail)) throw blobError('EACCES');
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || existing <= this.jailDepth) {
          throw asBlobError(e);
        }
        // realpath says ENOENT for a dangling symlink too; following one later could create a
        // file wherever it points, so a dangling link on the way counts as leaving the jail.
        // An entry that is no link was made meanwhile (a concurrent mkdirs of the same path):
        // resolved again, it is found this time.
        const found = await lstat(join(this.root, ...key.slice(0, existing))).catch(() => null);
        if (found?.isSymbolicLink() || (found && ++made > 3)) throw blobError('EACCES');
        if (!found) existing -= 1;
      }
    }
    return join(base, ...key.slice(existing));
  }

  /**
   * The path of the entry itself (a symlink is not followed), its parent resolved as in
   * `follow`: for stat, remove and rename, which act on a link rather than its target.
   */
  async entry(key: Key): Promise<string> {
    if (key.length <= this.jailDepth) return this.jailOf(key);
    const parent = await this.follow(key.slice(0, -1));
    return join(parent, key[key.length - 1]);
  }

  private async jailOf(key: Key): Promise<string> {
    try {
      return await realpath(join(this.root, ...key.slice(0, this.jailDepth)));
    } catch (e) {
      throw asBlobError(e);
    }
  }
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);
