import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { guardStreams, runCommand } from './child.js';

/** More than a pipe holds (64 KiB on Linux): the write cannot finish before the reader exits. */
const LARGE = 'x'.repeat(4 << 20);

/**
 * A command that exits without reading its input fails the call; the EPIPE of its stdin never
 * reaches the event loop, where it would end the server (vitest fails the run on an uncaught
 * exception, so a crash here fails this file).
 */
describe('runCommand', () => {
  it('rejects, never crashes, when the command exits before reading its input', async () => {
    for (let i = 0; i < 20; i++) {
      await expect(runCommand('/bin/true', [], { input: LARGE })).rejects.toThrow(
        /\/bin\/true: exited before reading its input \(.*EPIPE/,
      );
      await expect(runCommand('/bin/false', [], { input: LARGE })).rejects.toThrow(/\/bin\/false/);
    }
  });

  it('answers a command that reads its input, with its output, and its words when it fails', async () => {
    const { stdout } = await runCommand('/bin/sh', ['-c', 'wc -c'], { input: LARGE });
    expect(Number(stdout.trim())).toBe(LARGE.length);
    await expect(
      runCommand('/bin/sh', ['-c', 'cat >/dev/null; echo "no such job" >&2; exit 1'], {
        input: LARGE,
      }),
    ).rejects.toThrow('/bin/sh: no such job');
    await expect(runCommand('/nonexistent/command', [])).rejects.toThrow(/ENOENT/);
  });

  it('guards every stream of a spawned child: a write to a gone reader is no crash', async () => {
    for (let i = 0; i < 20; i++) {
      const child = guardStreams(spawn('/bin/true', [], { stdio: ['pipe', 'pipe', 'pipe'] }));
      const exited = new Promise((r) => child.once('close', r));
      child.stdin.end(LARGE);
      await exited;
    }
  });
});
