import type { Camel } from '@orrery/contract';
import type { PoolUtilisationWire, ReportUsageWire } from './api';

export type ReportUsage = Camel<ReportUsageWire>;
export interface ReportShare {
  name: string;
  credits: number;
}

/** Credits per project or per user, summed over clusters, the largest first; none at zero. */
export function sharesBy(usage: ReportUsage, key: 'projectName' | 'userName', none: string) {
  const sums = new Map<string, number>();
  for (const c of usage.clusters)
    for (const u of c.usage) {
      const name = u[key] ?? none;
      sums.set(name, (sums.get(name) ?? 0) + Number(u.credits));
    }
  // Nothing charged to it in the period (what rounds to 0.0000): no row, no bar.
  return [...sums.entries()]
    .filter(([, credits]) => Math.round(credits * 1e4) !== 0)
    .map(([name, credits]): ReportShare => ({ name, credits }))
    .sort((a, b) => b.credits - a.credits || a.name.localeCompare(b.name));
}

export type PoolUtilisation = Camel<PoolUtilisationWire>;

const percent = (used: number, total: number) =>
  total > 0 ? Math.round((used / total) * 1000) / 10 : null;

/** A pool's points as percentages of its size (none for GPUs when it has none). */
export function poolPoints(samples: PoolUtilisation['pools'][number]['samples']) {
  const withGpus = samples.some((s) => s.gpuTotal > 0);
  return {
    withGpus,
    data: samples.map((s) => ({
      at: s.at.slice(0, 16).replace('T', ' '),
      cpu: percent(s.cpuUsed, s.cpuTotal),
      memory: percent(s.memoryUsed, s.memoryTotal),
      ...(withGpus ? { gpu: percent(s.gpuUsed, s.gpuTotal) } : {}),
    })),
  };
}
