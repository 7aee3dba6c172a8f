import { hostname } from 'node:os';
import type { JobLimits, JobSpec, NodeCapacity, PoolCapacity } from './driver.js';
import { gpuCounts, type MachineGpus } from './gpus.js';

/** The node pool both drivers report: this machine (clusters/bootstrap.ts names it so too). */
export const POOL_NAME = 'local';

/** Entrypoint and command as one `sh -c` string; each is already shell-quoted by the client. */
export function shellCommand(spec: Pick<JobSpec, 'entrypoint' | 'command'>): string {
  return [spec.entrypoint, spec.command].filter(Boolean).join(' ');
}

/**
 * Words of a shell-quoted string as `sh` would split them (quotes and backslashes; no
 * expansions), for an image entrypoint that takes the command as its arguments.
 */
export function shellSplit(command: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      word = (word ?? '') + command.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? command.length : end;
    } else if (ch === '"') {
      word ??= '';
      for (i++; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === '\\' && /["\\$`]/.test(command[i + 1] ?? '')) i++;
        word += command[i];
      }
    } else if (ch === '\\') {
      word = (word ?? '') + (command[++i] ?? '');
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** What running jobs' limits take from a pool. */
export function usedBy(limits: JobLimits[]): { cpu: number; memory: number } {
  return limits.reduce((a, l) => ({ cpu: a.cpu + l.cpu, memory: a.memory + l.memory }), {
    cpu: 0,
    memory: 0,
  });
}

/** `onChange` subscribers; a failing listener does not stop the others. */
export class JobListeners {
  private readonly listeners = new Set<(id: string) => void>();

  add(listener: (id: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(id: string) {
    for (const l of this.listeners) {
      try {
        l(id);
      } catch {
        // A listener's own problem; the others still hear of the change.
      }
    }
  }

  clear() {
    this.listeners.clear();
  }
}

/**
 * This machine (or the Docker engine's host) as the one node of the `local` pool: what it has
 * whole, its GPUs by vendor (runtime/gpus.ts).
 */
export function machineNode(m: { cpu: number; memory: number; gpus: MachineGpus }): NodeCapacity {
  const gpus = gpuCounts(m.gpus);
  return {
    name: hostname(),
    pool: POOL_NAME,
    cpu: m.cpu,
    memory: m.memory,
    ...(Object.keys(gpus).length > 0 ? { gpus } : {}),
  };
}

/**
 * This machine as the one pool of a runtime that runs here: its size, the free disk `diskSize`
 * measured by the caller, and what `held` (the driver's own jobs) leaves free.
 */
export function machinePool(
  m: { cpu: number; memory: number },
  gpu: PoolCapacity['gpu'],
  diskSize: number,
  held: { cpu: number; memory: number },
): PoolCapacity[] {
  return [
    {
      name: POOL_NAME,
      cpu: m.cpu,
      memory: m.memory,
      diskSize,
      ...(gpu ? { gpu } : {}),
      availableCpu: m.cpu - held.cpu,
      availableMemory: m.memory - held.memory,
    },
  ];
}
