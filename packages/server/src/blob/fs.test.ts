import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFsBackend } from './fs.js';

/** Resolves after `n` turns of the event loop: callers that start apart, not in lockstep. */
const turns = (n: number) =>
  new Promise<void>((resolve) => {
    const next = (left: number) => (left ? setImmediate(() => next(left - 1)) : resolve());
    next(n);
  });

describe('the embedded file backend', () => {
  const root = mkdtempSync(join(tmpdir(), 'orrery-fs-backend-'));
  const files = createFsBackend(root, { jailDepth: 3 });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('makes one new directory asked for by many callers at once, for every one of them', async () => {
    // Two app installs make their homes' common parent side by side. A caller that found no
    // entry and then one made meanwhile took it for a dangling symlink (44 of these 800 refused).
    const refused: unknown[] = [];
    for (let round = 0; round < 100; round++) {
      const key = ['c', 'o', 'p', '.apps', 'shell', `home-${round}`];
      const all = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => turns(i).then(() => files.mkdirs(key))),
      );
      refused.push(...all.flatMap((r) => (r.status === 'rejected' ? [r.reason] : [])));
    }
    expect(refused).toEqual([]);
    expect(readdirSync(join(root, 'c/o/p/.apps/shell'))).toHaveLength(100);
  });

  it('still refuses to make anything through a dangling symlink', async () => {
    mkdirSync(join(root, 'c/o/q'), { recursive: true });
    const target = join(root, 'elsewhere');
    symlinkSync(target, join(root, 'c/o/q/link'));
    await expect(files.mkdirs(['c', 'o', 'q', 'link', 'x'])).rejects.toMatchObject({
      errno: 'EACCES',
    });
    expect(readdirSync(root)).not.toContain('elsewhere');
  });
});
