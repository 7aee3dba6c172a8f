import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readNumber, signal } from './exit.js';
import { groupAlive, groupTakesTerm, readStat, startedAt } from './proc.js';

/** A job's wrapper (launch.ts WRAPPER) seen from its directory: alive, started, stopped. */

/** Whether the wrapper still runs: its pid alive and started when `wrapper.pid` was written. */
export async function wrapperAlive(dir: string): Promise<boolean> {
  const wrapper = await readNumber(join(dir, 'wrapper.pid'));
  const s = wrapper && (await readStat(wrapper.value));
  if (!s || s.state === 'Z') return false;
  return Math.abs((await startedAt(s)) - wrapper.mtime.getTime()) < 10_000;
}

/**
 * The wrapper writes `pgid` a few milliseconds after the spawn: looking closely for it then
 * reports the job running at once instead of at the next poll (250 ms).
 */
export async function watchStart(dir: string, started: () => void) {
  const file = join(dir, 'pgid');
  for (let i = 0; i < 100; i++) {
    if (existsSync(file)) {
      started();
      return;
    }
    await sleep(3);
  }
}

/**
 * Stops the job's process group: SIGTERM, SIGKILL after `graceMs`, then whatever left the group
 * but not the job's cgroups (`killCgroups`); resolves once the wrapper has written the exit code.
 */
export async function stopWrapped(
  dir: string,
  graceMs: number,
  killCgroups: () => Promise<void>,
): Promise<void> {
  // A pgid is only signalled while its wrapper lives: after the job ends, the number may be
  // another group's.
  let pgid = await readNumber(join(dir, 'pgid'));
  for (let i = 0; pgid === null && i < 50 && (await wrapperAlive(dir)); i++) {
    await sleep(20);
    pgid = await readNumber(join(dir, 'pgid'));
  }
  if (pgid === null || !(await wrapperAlive(dir))) return;
  // Right after the start (only then) the group's only processes ignore SIGTERM (WRAPPER) and the
  // command would miss it: wait for the command (one that ignores SIGTERM itself gets it anyway).
  const settling = () => Date.now() - pgid!.mtime.getTime() < 1000;
  for (let i = 0; i < 50 && settling() && !(await groupTakesTerm(pgid.value)); i++) await sleep(20);
  signal(-pgid.value, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && (await groupAlive(pgid.value))) await sleep(50);
  if (await groupAlive(pgid.value)) signal(-pgid.value, 'SIGKILL');
  // And whatever left the group (setsid) but not the job's cgroups.
  await killCgroups();
  // The wrapper writes the exit code right after its child ends.
  for (let i = 0; i < 100 && (await wrapperAlive(dir)); i++) await sleep(20);
}
