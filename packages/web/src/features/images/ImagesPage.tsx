import type { ProjectPlace } from '@orrery/contract';
import { useState } from 'react';
import { Alert, Badge, Code, Group, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBrandDocker, IconSearch } from '@tabler/icons-react';
import { useImages } from '../../api/images';
import { EmptyState } from '../../ui/EmptyState';
import { DataTable } from '../../ui/DataTable';
import { ImageDrawer } from './ImageDrawer';
import { imageReference, matches } from './format';
import { IMAGE_TEXTS } from './texts';
import { PAGE_SEARCH_PROPS } from '../../app/shortcuts/shortcuts';
import { NeedsProject } from '../../app/context/project-place';

/** Search waits 400 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 400;
const MAX_TAG_BADGES = 5;

/** The Images area: the current project's images, with search and a drawer. */
export default function ImagesPage() {
  return (
    <NeedsProject title={IMAGE_TEXTS.empty} description={IMAGE_TEXTS.missingProject}>
      {(place) => <Images place={place} />}
    </NeedsProject>
  );
}

function Images({ place }: { place: ProjectPlace }) {
  const images = useImages(place);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [openName, setOpenName] = useState<string | null>(null);
  const data = images.data;
  const list = (data?.images ?? []).filter((i) => matches(i, debounced));
  const open = data?.images.find((i) => i.name === openName) ?? null;

  // The registry's own answer that it cannot list comes instead of the table and its search:
  // its message says it all (it begins with the same words a title would).
  const unavailable = images.isSuccess && !images.data.available;
  const body = unavailable ? (
    <Alert color="yellow">{images.data.message ?? IMAGE_TEXTS.unavailable}</Alert>
  ) : (
    <DataTable
      table={{ highlightOnHover: true }}
      status={{ query: images, loading: IMAGE_TEXTS.title, failed: IMAGE_TEXTS.loadFailed }}
      empty={
        <EmptyState
          icon={<IconBrandDocker size={24} />}
          title={IMAGE_TEXTS.empty}
          description={debounced ? undefined : IMAGE_TEXTS.emptyHint}
        />
      }
      rows={list}
      rowKey={(i) => i.repository}
      onRowClick={(i) => setOpenName(i.name)}
      rowProps={(i) => ({ 'aria-selected': i.name === openName })}
      columns={[
        { header: IMAGE_TEXTS.columns.name, cell: (i) => i.name, td: { fw: 500 } },
        {
          header: IMAGE_TEXTS.columns.tags,
          cell: (i) => (
            <Group gap={4}>
              {i.tags.slice(0, MAX_TAG_BADGES).map((t) => (
                <Badge key={t} variant="light" tt="none">
                  {t}
                </Badge>
              ))}
              {i.tags.length > MAX_TAG_BADGES && (
                <Badge variant="outline">+{i.tags.length - MAX_TAG_BADGES}</Badge>
              )}
            </Group>
          ),
        },
        {
          header: IMAGE_TEXTS.columns.image,
          cell: (i) => <Code>{imageReference(data!.registryHost, i)}</Code>,
        },
      ]}
    />
  );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{IMAGE_TEXTS.title}</Title>
        {!unavailable && (
          <TextInput
            aria-label={IMAGE_TEXTS.search}
            placeholder={IMAGE_TEXTS.search}
            leftSection={<IconSearch size={16} />}
            {...PAGE_SEARCH_PROPS}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            w={280}
          />
        )}
      </Group>
      {body}
      <ImageDrawer place={place} image={open} onClose={() => setOpenName(null)} />
    </Stack>
  );
}
