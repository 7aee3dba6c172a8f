import { Badge, Button, Paper, Group, Stack, Text } from '@mantine/core';
import { DataTable } from '../../../ui/DataTable';
import { IconExternalLink } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { AppInstance } from '../../../api/apps';
import { useOpenApp } from '../rules';
import { useContextLink } from '../../../app/context/platform-context';
import { formatDate } from '../../../ui/dates';
import { appLabel, stateColor } from '../rules';
import { APPS_TEXTS } from '../texts';
import { COST_TEXTS, credits } from '../../billing/cost/cost';
import { WhyNot } from '../../../ui/WhyNot';
import { messageOf } from '../../../ui/errors';
import { notifyError } from '../../../ui/notify';

const T = APPS_TEXTS.installed;

export function AppStateBadge({ state }: { state: string }) {
  return (
    <Badge color={stateColor(state)} variant="light" miw="max-content">
      {state}
    </Badge>
  );
}

/** Why an errored or degraded app is so, in a few lines (its page has all of it). */
function StateReason({ app }: { app: AppInstance }) {
  if (!app.stateMessage || (app.state !== 'errored' && app.state !== 'degraded')) return null;
  return (
    <Text
      size="xs"
      c={app.state === 'errored' ? 'red' : 'yellow.8'}
      lineClamp={3}
      title={app.stateMessage}
      style={{ wordBreak: 'break-word' }}
    >
      {app.stateMessage}
    </Text>
  );
}

/**
 * Open (a new tab at the app's own host, signed in), disabled with the reason until the app has
 * a URL, and for a reader of an interactive app.
 */
export function OpenAppButton({ app, compact = false }: { app: AppInstance; compact?: boolean }) {
  const { can, open } = useOpenApp(app);
  return (
    <WhyNot can={can}>
      <Button
        size={compact ? 'xs' : 'sm'}
        variant={compact ? 'light' : 'filled'}
        onClick={() => open().catch((e) => notifyError(messageOf(e, T.openFailed)))}
        rightSection={<IconExternalLink size={14} />}
      >
        {T.open}
      </Button>
    </WhyNot>
  );
}

function DetailsButton({ app }: { app: AppInstance }) {
  const link = useContextLink();
  return (
    <Button
      size="xs"
      variant="default"
      component={Link}
      to={link(`/apps/instances/${encodeURIComponent(app.id)}`)}
    >
      {T.details}
    </Button>
  );
}

/**
 * An installed app's card: name, status, Installed, Owner, Version, Details, Open;
 * and its credits so far.
 */
export function InstanceCard({ app }: { app: AppInstance }) {
  return (
    <Paper withBorder p="md" role="article" aria-label={appLabel(app)}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} truncate>
            {appLabel(app)}
          </Text>
          <AppStateBadge state={app.state} />
        </Group>
        <StateReason app={app} />
        <Text size="sm" c="dimmed">
          {app.templateName}
        </Text>
        <Text size="sm">
          {T.installedAt}: {formatDate(app.createdAt)}
        </Text>
        <Text size="sm">
          {T.owner}: {app.creator}
        </Text>
        <Text size="sm">
          {T.version}: {app.templateVersion}
        </Text>
        <Text size="sm">
          {COST_TEXTS.soFar}: {credits(app.creditsSoFar)}
        </Text>
        <Group gap="xs">
          <DetailsButton app={app} />
          <OpenAppButton app={app} compact />
        </Group>
      </Stack>
    </Paper>
  );
}

/** The same facts as a table, for the list view. */
export function InstanceTable({ apps }: { apps: AppInstance[] }) {
  return (
    <DataTable
      table={{ striped: true, highlightOnHover: true }}
      rows={apps}
      rowKey={(app) => app.id}
      columns={[
        {
          header: T.name,
          cell: (app) => (
            <>
              <Text fw={600} size="sm">
                {appLabel(app)}
              </Text>
              <Text size="xs" c="dimmed">
                {app.templateName}
              </Text>
            </>
          ),
        },
        {
          header: T.status,
          td: { maw: 320 },
          cell: (app) => (
            <Stack gap={2}>
              <AppStateBadge state={app.state} />
              <StateReason app={app} />
            </Stack>
          ),
        },
        { header: T.installedAt, cell: (app) => formatDate(app.createdAt) },
        { header: T.owner, cell: (app) => app.creator },
        { header: T.version, cell: (app) => app.templateVersion },
        { header: COST_TEXTS.soFar, cell: (app) => credits(app.creditsSoFar) },
        {
          cell: (app) => (
            <Group gap="xs" justify="flex-end">
              <DetailsButton app={app} />
              <OpenAppButton app={app} compact />
            </Group>
          ),
        },
      ]}
    />
  );
}
