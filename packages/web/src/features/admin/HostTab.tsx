import { Alert, Code, Loader, Stack, Text, Title } from '@mantine/core';
import { useHostLimits } from '../../api/admin';
import { DataTable } from '../../ui/DataTable';
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
          <DataTable
            table={{ striped: true, verticalSpacing: 'sm' }}
            rows={limits}
            rowKey={(l) => l.feature}
            columns={[
              { header: H.feature, cell: (l) => l.feature },
              { header: H.reason, cell: (l) => l.reason },
              { header: H.fix, cell: (l) => <Code block>{l.fix}</Code> },
            ]}
          />
        </>
      )}
    </Stack>
  );
}
