import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StatsSample } from '../driver.js';
import { readNumber } from './exit.js';
import { gpuFields, sampleGpu } from '../gpu-stats.js';
import { rssBytes, TICKS_PER_SECOND, tree } from './proc.js';

/**
 * A job's load once a second while `running()` holds: CPU from the ticks of its whole process
 * tree (below its wrappers, `wrapperPids()`: a gang has one per worker), memory as the sum of
 * their RSS, GPU when it has one.
 */
export async function* sampleTree(
  wrapperPids: () => Promise<number[]>,
  running: () => Promise<boolean>,
  withGpu: boolean,
  abort: AbortSignal,
): AsyncIterable<StatsSample> {
  let prev: { ticks: number; at: number } | undefined;
  while (!abort.aborted && (await running())) {
    const wrappers = await wrapperPids();
    if (wrappers.length === 0) return;
    const procs = (await Promise.all(wrappers.map((w) => tree(w)))).flat();
    const at = Date.now();
    const ticks = procs.reduce((n, p) => n + p.cpuTicks, 0);
    const memoryBytes = (await Promise.all(procs.map((p) => rssBytes(p.pid)))).reduce(
      (a, b) => a + b,
      0,
    );
    if (prev) {
      // Children reaped in between move their time into the parent's; it never goes back.
      const cpu = Math.max(0, (ticks - prev.ticks) / TICKS_PER_SECOND / ((at - prev.at) / 1000));
      const gpu = withGpu ? await sampleGpu(procs.map((p) => p.pid)) : null;
      yield { cpu, memoryBytes, timestamp: at / 1000, ...gpuFields(gpu) };
    }
    prev = { ticks, at };
    try {
      await sleep(1000, undefined, { signal: abort });
    } catch {
      return;
    }
  }
}

/** The wrappers' pids of the jobs (a gang's workers) in `dirs`, where they have one. */
export async function wrapperPids(dirs: string[]): Promise<number[]> {
  const pids = await Promise.all(dirs.map((d) => readNumber(join(d, 'wrapper.pid'))));
  return pids.flatMap((p) => (p ? [p.value] : []));
}
