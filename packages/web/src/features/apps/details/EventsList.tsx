import type { ProjectPlace } from '@orrery/contract';
import { Badge, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useInstanceEvents } from '../../../api/apps';
import { formatDate } from '../../../ui/dates';
import { messageOf } from '../../../ui/errors';
import { stateColor } from '../rules';
import { APPS_TEXTS } from '../texts';

const T = APPS_TEXTS.details;

/** The instance's state transitions, newest first, refreshed every 10 s. */
export function EventsList({ place, id }: { place: ProjectPlace; id: string }) {
  const events = useInstanceEvents(place, id);
  let body;
  if (events.isPending) body = <Loader size="sm" aria-label={APPS_TEXTS.loading} />;
  else if (events.isError)
    body = <Text c="red">{messageOf(events.error, APPS_TEXTS.somethingWentWrong)}</Text>;
  else if (events.data.items.length === 0) body = <Text c="dimmed">{T.noEvents}</Text>;
  else {
    const items = [...events.data.items].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    body = (
      <Table aria-label={T.events}>
        <Table.Tbody>
          {items.map((e, i) => (
            <Table.Tr key={`${e.createdAt}-${i}`}>
              <Table.Td w={180}>{formatDate(e.createdAt)}</Table.Td>
              <Table.Td w={150}>
                <Badge color={stateColor(e.state)} variant="light">
                  {e.state}
                </Badge>
              </Table.Td>
              <Table.Td>
                {e.reason && <Text size="sm">{e.reason}</Text>}
                {e.message && (
                  <Text size="xs" c="dimmed">
                    {e.message}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );
  }
  return (
    <Stack gap="xs">
      <Title order={4}>{T.events}</Title>
      {body}
    </Stack>
  );
}
