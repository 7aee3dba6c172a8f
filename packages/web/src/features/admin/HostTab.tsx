import { Alert, Code, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useHostLimits } from '../../api/admin';
import { messageOf } from '../../ui/errors';
import { ADMIN_UI } from './texts';

const H = ADMIN_UI.host;

/** What this installation cannot do, each with the reason and the command that fixes it. */
export function HostTab() {
  const host = useHostLimits();
  if (host.isPending) return <Loader aria-label={ADMIN_UI.tabs.host} />;
  if (host.isError) return <Alert color="red">{messageOf(host.error, ADMIN_UI.loadFailed)}</Alert>;
  const { root, limits } = host.data;
  return (
    <Stack>
      <Title order={3}>{H.title}</Title>
      {limits.length === 0 ? (
        <Text>{H.allWell}</Text>
      ) : (
        <>
          <Text c="dimmed">
            {H.intro}
            {root ? '' : ` ${H.notRoot}`}
          </Text>
          <Table striped verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{H.feature}</Table.Th>
                <Table.Th>{H.reason}</Table.Th>
                <Table.Th>{H.fix}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {limits.map((l) => (
                <Table.Tr key={l.feature}>
                  <Table.Td>{l.feature}</Table.Td>
                  <Table.Td>{l.reason}</Table.Td>
                  <Table.Td>
                    <Code block>{l.fix}</Code>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  );
}
