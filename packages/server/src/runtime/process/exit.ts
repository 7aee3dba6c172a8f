import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { formatMemory, JOB_REASONS } from '@orrery/contract';
import type { ObservedState } from '../driver.js';
import { oomKills } from './cgroups.js';

/**
 * The end of a job as its wrapper recorded it in the job's directory (`exit`, `pgid`, `oom`), and
 * why when it is not its own doing: its network could not be made (`failure`), or the kernel
 * killed it for exceeding `memoryLimit` bytes. Null while the job has not ended.
 */
export async function exitState(dir: string, memoryLimit: number): Promise<ObservedState | null> {
  const [exit, pgid, oom, failure] = await Promise.all([
    readNumber(join(dir, 'exit')),
    readNumber(join(dir, 'pgid')),
    readFile(join(dir, 'oom'), 'utf8').catch(() => ''),
    readFile(join(dir, 'failure'), 'utf8').catch(() => null),
  ]);
  if (!exit) return null;
  const ended = {
    state: 'exited' as const,
    exitCode: exit.value,
    finishedAt: exit.mtime,
    ...(pgid ? { startedAt: pgid.mtime } : {}),
  };
  if (failure !== null) {
    return { ...ended, reason: JOB_REASONS.containerCannotRun, message: failure };
  }
  // The kernel killed a process of the job for its memory, and the job failed of it.
  if (exit.value !== 0 && oomKills(oom) > 0) {
    // In the preset's own unit (MB, GB: decimal), as the console shows the job's memory.
    return {
      ...ended,
      reason: JOB_REASONS.oomKilled,
      message: `Killed: the job exceeded its memory limit of ${formatMemory(memoryLimit)}`,
    };
  }
  return ended;
}

/** A number written to a file, with the time it was written; null while absent or half-written. */
export async function readNumber(path: string): Promise<{ value: number; mtime: Date } | null> {
  const [text, st] = await Promise.all([
    readFile(path, 'utf8').catch(() => ''),
    stat(path).catch(() => null),
  ]);
  const value = Number.parseInt(text.trim(), 10);
  return st && /^-?\d+$/.test(text.trim()) ? { value, mtime: st.mtime } : null;
}

export function signal(target: number, sig: NodeJS.Signals) {
  try {
    process.kill(target, sig);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}
