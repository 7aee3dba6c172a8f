import { lstatSync, mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shareVolume } from './volumes.js';

const root = process.getuid?.() === 0;

/** A volume the job owns (JobMount.owned): handed to its uid, and nothing outside it. */
describe.runIf(root)('owned volumes', () => {
  it('hands the tree to the job uid without following the links a job planted', async () => {
    const base = mkdtempSync(join(tmpdir(), 'orrery-owned-'));
    const home = join(base, 'home');
    const outside = join(base, 'outside');
    mkdirSync(join(home, 'pgdata'), { recursive: true, mode: 0o700 });
    writeFileSync(join(home, 'pgdata', 'PG_VERSION'), '15\n', { mode: 0o600 });
    writeFileSync(outside, 'not the job’s');
    mkdirSync(join(base, 'elsewhere'));
    // What an earlier job of the instance could leave: links out of the volume.
    symlinkSync(outside, join(home, 'pgdata', 'link'));
    symlinkSync(join(base, 'elsewhere'), join(home, 'dir-link'));
    const ids = { uid: 20123, gid: 20124 };
    await shareVolume(
      { hostPath: home, dstPath: '/data', readOnly: false, owned: true },
      '/x',
      ids,
    );
    for (const p of [home, join(home, 'pgdata'), join(home, 'pgdata', 'PG_VERSION')]) {
      expect(statSync(p)).toMatchObject({ uid: ids.uid, gid: ids.gid });
    }
    // Modes kept: PostgreSQL wants its directory 0700.
    expect(statSync(join(home, 'pgdata')).mode & 0o7777).toBe(0o700);
    expect(statSync(outside).uid).toBe(0);
    expect(statSync(join(base, 'elsewhere')).uid).toBe(0);
    expect(lstatSync(join(home, 'dir-link')).isSymbolicLink()).toBe(true);
  });
});
