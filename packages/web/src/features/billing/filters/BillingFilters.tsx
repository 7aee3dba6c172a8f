import { Chip, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { BILLING_TEXTS } from '../texts';
import type { BillingFilterState, GroupChoice } from './filters';
import { toggleGroup } from './filters';
import { PeriodFilters } from './PeriodFilters';

const F = BILLING_TEXTS.filters;
const GROUPS: { value: GroupChoice; label: string }[] = [
  { value: 'project', label: F.project_ },
  { value: 'day', label: F.day },
  { value: 'month', label: F.month_ },
];

/** The billing page's filters, shared by its two tabs. */
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
      <PeriodFilters value={value} onChange={onChange} today={today} />
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
