/**
 * Amounts of the resources the scheduler counts: CPU in cores, memory in bytes, GPUs in devices
 * by vendor. An absent key is zero in an amount, and "no limit" in a quota.
 */
export const RESOURCES = ['cpu', 'memory', 'nvidia_gpu', 'amd_gpu', 'intel_gpu'] as const;
export type ResourceName = (typeof RESOURCES)[number];
export type Resources = Partial<Record<ResourceName, number>>;

/** CPU is compared with a tolerance: presets say 0.1 core, and 0.1 + 0.2 is not 0.3 in floats. */
const EPSILON = 1e-9;

export function add(a: Resources, b: Resources): Resources {
  const out: Resources = { ...a };
  for (const r of RESOURCES) if (b[r]) out[r] = (out[r] ?? 0) + b[r];
  return out;
}

export function subtract(a: Resources, b: Resources): Resources {
  const out: Resources = { ...a };
  for (const r of RESOURCES) if (b[r]) out[r] = (out[r] ?? 0) - b[r];
  return out;
}

/** `r` taken `n` times: what a gang of `n` workers each asking for `r` holds in all. */
export function scale(r: Resources, n: number): Resources {
  if (n === 1) return r;
  const out: Resources = {};
  for (const k of RESOURCES) if (r[k]) out[k] = r[k] * n;
  return out;
}

export const sum = (list: Iterable<Resources>): Resources => {
  let total: Resources = {};
  for (const r of list) total = add(total, r);
  return total;
};

/** Whether `need` fits in `free`, every resource at once. */
export function fits(need: Resources, free: Resources): boolean {
  return RESOURCES.every((r) => (need[r] ?? 0) <= (free[r] ?? 0) + EPSILON);
}

/** The resources of `need` that `free` lacks, with how much is free of each. */
export function shortOf(need: Resources, free: Resources): ResourceName[] {
  return RESOURCES.filter((r) => (need[r] ?? 0) > (free[r] ?? 0) + EPSILON);
}

/**
 * The largest fraction of `total` that `used` takes of any one resource: dominant-resource
 * fairness compares consumers by it, so that a GPU job and a CPU job are weighed by what is
 * scarce for each. Resources the pool does not have count for nothing.
 */
export function dominantShare(used: Resources, total: Resources): number {
  let share = 0;
  for (const r of RESOURCES) {
    const t = total[r] ?? 0;
    if (t > 0) share = Math.max(share, (used[r] ?? 0) / t);
  }
  return share;
}

/**
 * Recent use that fades: what was held in the last `dtMs` folded into the running figure, so
 * that use `halfLifeMs` ago counts half as much as use now. The figure is an average amount
 * (cores, bytes, devices), comparable with what is held at this moment.
 */
export function decay(previous: Resources, heldNow: Resources, dtMs: number, halfLifeMs: number) {
  const keep = halfLifeMs > 0 ? 2 ** (-Math.max(0, dtMs) / halfLifeMs) : 0;
  const out: Resources = {};
  for (const r of RESOURCES) {
    const v = (previous[r] ?? 0) * keep + (heldNow[r] ?? 0) * (1 - keep);
    if (v > 0) out[r] = v;
  }
  return out;
}
