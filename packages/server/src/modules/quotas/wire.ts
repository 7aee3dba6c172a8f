import {
  QUOTA_RESOURCES,
  type LimitsWire,
  type QuotaUse,
  type QuotaWire,
  type ResourceAmounts,
} from '@orrery/contract';
import type { Limits } from './store.js';

/** Every resource named, null where unlimited. */
export const limitsWire = (a: ResourceAmounts): LimitsWire =>
  Object.fromEntries(QUOTA_RESOURCES.map((r) => [r, a[r] ?? null])) as LimitsWire;

export const NO_LIMITS: Limits = { nominal: {}, borrowingLimit: {} };

export const quotaWire = (l: Limits = NO_LIMITS): QuotaWire => ({
  ...limitsWire(l.nominal),
  borrowing_limit: limitsWire(l.borrowingLimit),
});

export type Held = Omit<QuotaUse, 'total_running_jobs'> & { jobs: number };

/** What a set of held rows adds up to, as answered. */
export function useOf(rows: Held[]): QuotaUse {
  const use: QuotaUse = {
    cpu: 0,
    memory: 0,
    nvidia_gpu: 0,
    amd_gpu: 0,
    intel_gpu: 0,
    total_running_jobs: 0,
  };
  for (const r of rows) {
    for (const k of QUOTA_RESOURCES) use[k] += r[k];
    use.total_running_jobs += r.jobs;
  }
  // CPU is a sum of fractions (0.1 + 0.2): answered as a person would write it.
  use.cpu = +use.cpu.toFixed(6);
  return use;
}
