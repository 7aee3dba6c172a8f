import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StatsSample } from '../driver.js';

/** No new sample for this long: the job has ended (its script samples each second). */
const STALE_MS = 5000;
/** The first sample comes once the sandbox has its network and the command runs. */
const FIRST_MS = 15_000;

/**
 * Live stats from the samples the batch script writes to the job's directory (script.ts
 * `sampler`): CPU from the difference of two samples on the node's own clock, memory as the node
 * read it. Ends when the samples stop.
 */
export async function* statsFromFile(path: string, abort: AbortSignal): AsyncIterable<StatsSample> {
  let prev: { at: number; ns: number } | undefined;
  let deadline = Date.now() + FIRST_MS;
  while (!abort.aborted && Date.now() < deadline) {
    const text = await readFile(path, 'utf8').catch(() => '');
    const [at, ns, memoryBytes] = text.trim().split(' ').map(Number);
    if ([at, ns, memoryBytes].every(Number.isFinite) && at !== prev?.at) {
      deadline = Date.now() + STALE_MS;
      if (prev && at > prev.at) {
        const cpu = Math.max(0, (ns - prev.ns) / 1e6 / (at - prev.at));
        yield { cpu, memoryBytes, timestamp: Date.now() / 1000 };
      }
      prev = { at, ns };
    }
    try {
      await sleep(500, undefined, { signal: abort });
    } catch {
      return;
    }
  }
}
