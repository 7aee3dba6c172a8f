import { Badge, Button, Paper, Group, Stack, Table, Text } from '@mantine/core';
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
    <Badge color={stateColor(state)} variant="light">
      {state}
    </Badge>
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
    <Table striped highlightOnHover>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{T.name}</Table.Th>
          <Table.Th>{T.status}</Table.Th>
          <Table.Th>{T.installedAt}</Table.Th>
          <Table.Th>{T.owner}</Table.Th>
          <Table.Th>{T.version}</Table.Th>
          <Table.Th>{COST_TEXTS.soFar}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {apps.map((app) => (
          <Table.Tr key={app.id}>
            <Table.Td>
              <Text fw={600} size="sm">
                {appLabel(app)}
              </Text>
              <Text size="xs" c="dimmed">
                {app.templateName}
              </Text>
            </Table.Td>
            <Table.Td>
              <AppStateBadge state={app.state} />
            </Table.Td>
            <Table.Td>{formatDate(app.createdAt)}</Table.Td>
            <Table.Td>{app.creator}</Table.Td>
            <Table.Td>{app.templateVersion}</Table.Td>
            <Table.Td>{credits(app.creditsSoFar)}</Table.Td>
            <Table.Td>
              <Group gap="xs" justify="flex-end">
                <DetailsButton app={app} />
                <OpenAppButton app={app} compact />
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
