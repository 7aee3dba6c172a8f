import { Chip, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { BILLING_TEXTS } from '../texts';
import type { BillingFilterState, GroupChoice } from './filters';
import { monthRange, monthStarted, toggleGroup, yearOptions, yearRange } from './filters';

const F = BILLING_TEXTS.filters;
const MONTHS = Array.from({ length: 12 }, (_, m) =>
  new Date(Date.UTC(2024, m, 1)).toLocaleString('en-US', { month: 'long', timeZone: 'UTC' }),
);
const GROUPS: { value: GroupChoice; label: string }[] = [
  { value: 'project', label: F.project_ },
  { value: 'day', label: F.day },
  { value: 'month', label: F.month_ },
];

/** console-shell §2 and §9: the billing page's filters, shared by its two tabs. */
export function BillingFilters(props: {
  value: BillingFilterState;
  onChange(next: BillingFilterState): void;
  clusters: string[];
  projects: string[];
  today: string;
  /** The Usage tab shows every cluster: the cluster filter is off there. */
  clusterDisabled: boolean;
  /** Grouping shapes the Usage tab only; the Credits tab asks for totals. */
  withGroups: boolean;
}) {
  const { value, onChange, today } = props;
  const set = (patch: Partial<BillingFilterState>) => onChange({ ...value, ...patch });
  const year = value.year ?? Number(today.slice(0, 4));
  const cluster = (
    <Select
      label={F.cluster}
      w={180}
      data={props.clusters}
      placeholder={F.allClusters}
      clearable
      disabled={props.clusterDisabled}
      value={props.clusterDisabled ? null : value.cluster}
      onChange={(cluster) => set({ cluster })}
    />
  );
  return (
    <Group align="flex-end" gap="sm">
      {props.clusterDisabled ? (
        <Tooltip label={F.clusterDisabled}>
          <div>{cluster}</div>
        </Tooltip>
      ) : (
        cluster
      )}
      <Select
        label={F.project}
        w={180}
        data={props.projects}
        placeholder={F.allProjects}
        clearable
        searchable
        value={value.project}
        onChange={(project) => set({ project })}
      />
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
      {props.withGroups && (
        <Stack gap={4}>
          <Text size="sm" fw={500} id="billing-group-by">
            {F.groupBy}
          </Text>
          <Group gap={6} role="group" aria-labelledby="billing-group-by" mih={36}>
            {GROUPS.map((g) => (
              <Chip
                key={g.value}
                size="sm"
                checked={value.groups.includes(g.value)}
                onChange={() => set({ groups: toggleGroup(value.groups, g.value) })}
              >
                {g.label}
              </Chip>
            ))}
          </Group>
        </Stack>
      )}
    </Group>
  );
}
