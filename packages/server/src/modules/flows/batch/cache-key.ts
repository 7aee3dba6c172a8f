import { createHash } from 'node:crypto';
import type { NeedResult } from './contexts.js';
import type { TaskRun } from './task.js';

/** JSON with keys sorted at every level, so equal values always give the same text. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/**
 * The cache key of an evaluated task: what it runs and what its needs gave it. Whether and how
 * long it is cached, and whether a need was run or itself cached, do not change what it computes.
 */
export function cacheKey(run: TaskRun, needs: Record<string, NeedResult>): string {
  const { cache: _cache, enabled: _enabled, ...task } = run;
  const outputs = Object.fromEntries(Object.entries(needs).map(([id, n]) => [id, n.outputs]));
  return createHash('sha256')
    .update(canonical({ task, needs: outputs }))
    .digest('hex');
}
