import { useState } from 'react';
import { Badge, CloseButton, Group, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { IconSearch, IconTag } from '@tabler/icons-react';
import { JOB_STATUS_FILTERS } from '@orrery/contract';
import type { StatusFilter } from '../rules';
import { JOBS_TEXTS } from '../texts';
import type { useListParams } from './useListParams';
import { PAGE_SEARCH_PROPS } from '../../../app/shortcuts/shortcuts';

/** Status, search and tags: every change lands in the query string (useListParams). */
export function JobsFilters(props: {
  params: ReturnType<typeof useListParams>;
  searchText: string;
  onSearchText(text: string): void;
}) {
  const { params } = props;
  const [tag, setTag] = useState('');
  const addTag = () => {
    const value = tag.trim();
    if (value) params.addTag(value);
    setTag('');
  };
  return (
    <Stack>
      <Group align="flex-end">
        <SegmentedControl
          aria-label={JOBS_TEXTS.status}
          value={params.status}
          onChange={(v) => params.setStatus(v as StatusFilter)}
          data={JOB_STATUS_FILTERS.map((s) => ({ value: s, label: JOBS_TEXTS.statusLabels[s] }))}
        />
        <TextInput
          aria-label={JOBS_TEXTS.search}
          placeholder={JOBS_TEXTS.search}
          leftSection={<IconSearch size={16} />}
          {...PAGE_SEARCH_PROPS}
          value={props.searchText}
          onChange={(e) => props.onSearchText(e.currentTarget.value)}
          w={260}
        />
        <TextInput
          aria-label={JOBS_TEXTS.addTag}
          placeholder={JOBS_TEXTS.addTag}
          title={JOBS_TEXTS.addTagHint}
          leftSection={<IconTag size={16} />}
          value={tag}
          onChange={(e) => setTag(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') addTag();
          }}
          w={200}
        />
      </Group>
      {(params.tags.length > 0 || params.flowName) && (
        <Group gap="xs">
          {params.flowName && (
            <FilterChip
              label={JOBS_TEXTS.flowFilter(params.flowName)}
              removeLabel={JOBS_TEXTS.clearFlow}
              onRemove={params.clearFlow}
            />
          )}
          {params.tags.map((t) => (
            <FilterChip
              key={t}
              label={t}
              removeLabel={JOBS_TEXTS.removeTag(t)}
              onRemove={() => params.removeTag(t)}
            />
          ))}
        </Group>
      )}
    </Stack>
  );
}

function FilterChip(props: { label: string; removeLabel: string; onRemove(): void }) {
  return (
    <Badge
      variant="light"
      tt="none"
      size="lg"
      rightSection={
        <CloseButton size="xs" aria-label={props.removeLabel} onClick={props.onRemove} />
      }
    >
      {props.label}
    </Badge>
  );
}
