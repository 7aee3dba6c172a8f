import type { ProjectPlace } from '@orrery/contract';
import {
  Alert,
  Button,
  Checkbox,
  CloseButton,
  Group,
  Loader,
  Pill,
  Popover,
  SegmentedControl,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import { IconApps, IconFilter, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useInstances, useTemplates } from '../../../api/apps';
import { useContextLink } from '../../../app/context/platform-context';
import { EmptyState } from '../../../ui/EmptyState';
import { messageOf } from '../../../ui/errors';
import { appLabel, sortTags } from '../rules';
import { APPS_TEXTS } from '../texts';
import { InstanceCard, InstanceTable } from './InstanceCard';
import { useInstalledParams, type ViewType } from './useInstalledParams';
import { PAGE_SEARCH_PROPS } from '../../../app/shortcuts/shortcuts';

const T = APPS_TEXTS.installed;

/**
 * Installed Apps: this project's instances, polled every 15 s, searched by name,
 * filtered by their templates' tags, as cards or a list. Under `installed/{appName}` only that
 * template's instances, with a chip that closes the filter.
 */
export function InstalledTab({ place }: { place: ProjectPlace }) {
  const { appName } = useParams();
  const instances = useInstances(place);
  const templates = useTemplates(place);
  const { typed, setTyped, search, view, setView } = useInstalledParams();
  const [tags, setTags] = useState<string[]>([]);

  const tagsOf = new Map((templates.data ?? []).map((t) => [t.name, t.tags]));
  const allTags = sortTags([...new Set([...tagsOf.values()].flat())]);
  const needle = search.trim().toLowerCase();
  const shown = (instances.data ?? []).filter(
    (app) =>
      (!appName || app.templateName === appName) &&
      (!needle ||
        appLabel(app).toLowerCase().includes(needle) ||
        app.name.toLowerCase().includes(needle)) &&
      (tags.length === 0 || tags.some((t) => tagsOf.get(app.templateName)?.includes(t))),
  );

  let body;
  if (instances.isPending) body = <Loader aria-label={APPS_TEXTS.loading} />;
  else if (instances.isError)
    body = (
      <Alert color="red" title={APPS_TEXTS.somethingWentWrong}>
        {messageOf(instances.error, APPS_TEXTS.somethingWentWrong)}
      </Alert>
    );
  else if (instances.data.length === 0)
    body = <EmptyState icon={<IconApps size={24} />} title={T.empty} description={T.emptyHint} />;
  else if (shown.length === 0) body = <EmptyState title={T.noMatch} />;
  else if (view === 1) body = <InstanceTable apps={shown} />;
  else
    body = (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {shown.map((app) => (
          <InstanceCard key={app.id} app={app} />
        ))}
      </SimpleGrid>
    );

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Group gap="sm">
          <TextInput
            aria-label={T.search}
            placeholder={T.search}
            leftSection={<IconSearch size={14} />}
            {...PAGE_SEARCH_PROPS}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
          />
          <TagFilter all={allTags} chosen={tags} onChange={setTags} />
          {appName && <AppNameChip name={appName} />}
        </Group>
        <SegmentedControl
          value={String(view)}
          onChange={(v) => setView(Number(v) as ViewType)}
          data={[
            { value: '0', label: T.grid },
            { value: '1', label: T.list },
          ]}
        />
      </Group>
      {body}
    </Stack>
  );
}

function TagFilter(props: { all: string[]; chosen: string[]; onChange(tags: string[]): void }) {
  return (
    <Popover position="bottom-start" withinPortal>
      <Popover.Target>
        <Button
          variant={props.chosen.length ? 'light' : 'default'}
          leftSection={<IconFilter size={14} />}
        >
          {props.chosen.length ? `${T.tags} (${props.chosen.length})` : T.tags}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Checkbox.Group value={props.chosen} onChange={props.onChange} aria-label={T.tags}>
            <Stack gap={6}>
              {props.all.map((tag) => (
                <Checkbox key={tag} value={tag} label={tag} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Button size="xs" variant="subtle" onClick={() => props.onChange([])}>
            {T.clearTags}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Closes back to the previous page, or to All Apps when there is none. */
function AppNameChip({ name }: { name: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const link = useContextLink();
  const close = () => {
    if (location.key !== 'default') navigate(-1);
    else navigate(link('/apps'));
  };
  return (
    <Pill size="lg">
      <Group gap={4} wrap="nowrap">
        {name}
        <CloseButton size="xs" aria-label={T.closeFilter} onClick={close} />
      </Group>
    </Pill>
  );
}
