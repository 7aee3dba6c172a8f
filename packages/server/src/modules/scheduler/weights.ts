import { RESOURCES, dominantShare, type Resources } from './resources.js';

/** A nominal share, and how far beyond it idle capacity of the pool may be borrowed; an absent
 * resource has no limit. */
export interface Quota {
  nominal?: Resources;
  borrowingLimit?: Resources;
}

/** The smallest weight: a consumer whose nominal quota is zero still gets idle capacity last. */
const FLOOR = 0.01;

/**
 * Each consumer's weight in the fair share of `pool`: the part of the pool its nominal quota
 * names (its dominant share); those without a quota split what the quotas leave equally. With
 * no quotas at all every consumer weighs the same.
 */
export function weightsOf(
  keys: string[],
  quotaOf: (key: string) => Quota | undefined,
  pool: Resources,
): Map<string, number> {
  const weights = new Map<string, number>();
  const unset: string[] = [];
  let assigned = 0;
  for (const k of keys) {
    const nominal = quotaOf(k)?.nominal;
    if (nominal && RESOURCES.some((r) => nominal[r] !== undefined)) {
      const w = Math.max(FLOOR, dominantShare(nominal, pool));
      weights.set(k, w);
      assigned += w;
    } else unset.push(k);
  }
  const each = unset.length ? Math.max(FLOOR, (1 - assigned) / unset.length) : 0;
  for (const k of unset) weights.set(k, each);
  return weights;
}
