import { Select } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { BILLING_TEXTS } from '../texts';
import type { BillingFilterState } from './filters';
import { monthRange, monthStarted, yearOptions, yearRange } from './filters';

const F = BILLING_TEXTS.filters;
const MONTHS = Array.from({ length: 12 }, (_, m) =>
  new Date(Date.UTC(2024, m, 1)).toLocaleString('en-US', { month: 'long', timeZone: 'UTC' }),
);

/** The period part of the billing filters: a date range, month and year picks. */
export type Period = Pick<BillingFilterState, 'from' | 'to' | 'month' | 'year'>;

export function PeriodFilters<P extends Period>({
  value,
  onChange,
  today,
}: {
  value: P;
  onChange(next: P): void;
  today: string;
}) {
  const set = (patch: Partial<Period>) => onChange({ ...value, ...patch });
  const year = value.year ?? Number(today.slice(0, 4));
  return (
    <>
      <DatePickerInput
        type="range"
        label={F.range}
        w={260}
        valueFormat="MMM D, YYYY"
        numberOfColumns={2}
        maxDate={today}
        allowSingleDateInRange
        value={[value.from, value.to]}
        onChange={([from, to]) => {
          // A range counts once both ends are picked; the quick picks no longer describe it.
          if (from && to) set({ from, to, month: null, year: null });
        }}
      />
      <Select
        label={F.month}
        w={140}
        clearable
        data={MONTHS.map((label, m) => ({
          value: String(m),
          label,
          disabled: !monthStarted(year, m, today),
        }))}
        value={value.month === null ? null : String(value.month)}
        onChange={(m) =>
          m === null
            ? set({ month: null })
            : set({ ...monthRange(year, Number(m), today), month: Number(m), year })
        }
      />
      <Select
        label={F.year}
        w={110}
        data={yearOptions(today).map(String)}
        value={value.year === null ? null : String(value.year)}
        onChange={(y) => {
          if (y === null) return set({ year: null });
          const next = Number(y);
          const month = value.month !== null && monthStarted(next, value.month, today);
          set(
            month
              ? { ...monthRange(next, value.month!, today), year: next }
              : { ...yearRange(next, today), year: next, month: null },
          );
        }}
      />
    </>
  );
}
