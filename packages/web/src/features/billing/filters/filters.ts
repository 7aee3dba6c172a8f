import type { UsageGroup } from '../../../api/billing';

/** The group-by choices; category is always grouped (the chart's series). */
export type GroupChoice = 'project' | 'day' | 'month';

export interface BillingFilterState {
  cluster: string | null;
  project: string | null;
  /** `YYYY-MM-DD`, UTC days as the server counts them, both included. */
  from: string;
  to: string;
  groups: GroupChoice[];
  /** The quick picks that set the range, shown while the range is theirs. */
  month: number | null;
  year: number | null;
}

/** Year options start in 2024. */
export const FIRST_YEAR = 2024;

export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);
const day = (y: number, m: number, d: number) =>
  new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
const notAfter = (a: string, b: string) => (a > b ? b : a);

/** By category and day, from the start of the month to today. */
export function defaultFilters(today: string): BillingFilterState {
  return {
    cluster: null,
    project: null,
    from: `${today.slice(0, 8)}01`,
    to: today,
    groups: ['day'],
    month: null,
    year: null,
  };
}

/** Years offered: 2024 up to this one. */
export function yearOptions(today: string): number[] {
  const last = Number(today.slice(0, 4));
  return Array.from({ length: last - FIRST_YEAR + 1 }, (_, i) => FIRST_YEAR + i);
}

/** A month (0-11) of a year as a range, never past today. */
export function monthRange(year: number, month: number, today: string) {
  return { from: day(year, month, 1), to: notAfter(day(year, month + 1, 0), today) };
}

/** A year as a range, never past today. */
export function yearRange(year: number, today: string) {
  return { from: day(year, 0, 1), to: notAfter(day(year, 11, 31), today) };
}

/** Whether a month has begun by today (later ones cannot be picked). */
export const monthStarted = (year: number, month: number, today: string) =>
  day(year, month, 1) <= today;

/** Turns a group on or off; day and month exclude each other. */
export function toggleGroup(groups: GroupChoice[], group: GroupChoice): GroupChoice[] {
  if (groups.includes(group)) return groups.filter((g) => g !== group);
  const other = group === 'day' ? 'month' : group === 'month' ? 'day' : null;
  return [...groups.filter((g) => g !== other), group];
}

/** The wire's group_by: category first, then the chosen ones. */
export const wireGroups = (groups: GroupChoice[]): UsageGroup[] => ['category', ...groups];
