import { appendFileSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { LogFile } from './log-file.js';

describe('LogFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orrery-log-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const read = (f: LogFile, since?: Date, timestamps = true) =>
    text(f.read({ follow: false, timestamps, since }));

  it('stamps complete lines with the time they were written, a partial one at the end', async () => {
    const f = new LogFile(dir);
    appendFileSync(f.output, 'a\nb');
    utimesSync(f.output, new Date(1000), new Date(1000));
    await f.stamp();
    appendFileSync(f.output, 'c\nd');
    utimesSync(f.output, new Date(5000), new Date(5000));
    await f.stamp();
    expect(await read(f)).toBe('1970-01-01T00:00:01.000Z a\n1970-01-01T00:00:05.000Z bc\n');
    await f.stamp(true);
    expect(await read(f, new Date(5000), false)).toBe('bc\nd');
    // A second writer's stale view stamps nothing twice.
    await new LogFile(dir).stamp(true);
    expect(await read(f)).toMatch(/ a\n.* bc\n.* d$/);
  });

  it('appends lines that carry their own times', async () => {
    const f = new LogFile(join(dir, 'engine'));
    await f.append([
      { time: 2000, text: 'one\n' },
      { time: 2000, text: 'two\n' },
      { time: 3000, text: 'three\n' },
    ]);
    expect(await read(f, new Date(2500))).toBe('1970-01-01T00:00:03.000Z three\n');
    expect(await read(f, undefined, false)).toBe('one\ntwo\nthree\n');
  });
});
