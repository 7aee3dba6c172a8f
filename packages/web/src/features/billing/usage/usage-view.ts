import type { Usage } from '../../../api/billing';
import type { GroupChoice } from '../filters/filters';
import { BILLING_TEXTS, CATEGORY_LABELS } from '../texts';

export interface UsageRow {
  cluster: string;
  project?: string;
  date?: string;
  category: string;
  credits: string;
}

/** The table's rows: one per cluster and group, in the server's order. */
export const usageRows = (usage: Usage): UsageRow[] =>
  usage.clusters.flatMap((c) =>
    c.usage.map((u) => ({
      cluster: c.clusterName,
      project: u.projectName,
      date: u.date,
      category: u.category ?? '',
      credits: u.credits,
    })),
  );

export const categoryLabel = (c: string) => CATEGORY_LABELS[c] ?? c;

const COLORS: Record<string, string> = {
  jobs: 'blue.6',
  apps: 'grape.6',
  storage: 'teal.6',
  disks: 'orange.6',
};
/** Each category's colour, the same in every chart. */
export const categoryColor = (c: string) => COLORS[c] ?? 'gray.6';

/**
 * The stacked chart: one bar per date (by day or month), else per project, else the whole
 * period; one series per category, summed over clusters (and projects when dated).
 */
export function usageChart(usage: Usage, groups: GroupChoice[]) {
  const byDate = groups.includes('day') || groups.includes('month');
  const xOf = (r: UsageRow) =>
    byDate
      ? (r.date ?? '')
      : groups.includes('project')
        ? (r.project ?? '')
        : BILLING_TEXTS.usage.allPeriod;
  const bars = new Map<string, Record<string, number>>();
  const categories = new Set<string>();
  for (const r of usageRows(usage)) {
    const x = xOf(r);
    const bar = bars.get(x) ?? {};
    bar[r.category] = (bar[r.category] ?? 0) + Number(r.credits);
    bars.set(x, bar);
    categories.add(r.category);
  }
  const data = [...bars.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([x, bar]) => ({ x, ...bar }));
  return { data, categories: [...categories].sort() };
}
