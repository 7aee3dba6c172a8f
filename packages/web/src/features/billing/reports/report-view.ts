import type { Camel } from '@orrery/contract';
import type { ReportUsageWire } from './api';

export type ReportUsage = Camel<ReportUsageWire>;
export interface ReportShare {
  name: string;
  credits: number;
}

/** Credits per project or per user, summed over clusters, the largest first. */
export function sharesBy(usage: ReportUsage, key: 'projectName' | 'userName', none: string) {
  const sums = new Map<string, number>();
  for (const c of usage.clusters)
    for (const u of c.usage) {
      const name = u[key] ?? none;
      sums.set(name, (sums.get(name) ?? 0) + Number(u.credits));
    }
  return [...sums.entries()]
    .map(([name, credits]): ReportShare => ({ name, credits }))
    .sort((a, b) => b.credits - a.credits || a.name.localeCompare(b.name));
}
