import { Alert, Button, Center, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { fetchUsageCsv, useUsage, type UsageFilters, type Usage } from '../../../api/billing';
import { messageOf } from '../../../ui/errors';
import { EmptyState } from '../../../ui/EmptyState';
import { notifyError } from '../../../ui/notify';
import { downloadText } from '../../jobs/logs/download';
import { formatCredits } from '../credits';
import type { GroupChoice } from '../filters/filters';
import { BILLING_TEXTS } from '../texts';
import { CategoryChart } from './CategoryChart';
import { categoryLabel, usageChart, usageRows } from './usage-view';

const T = BILLING_TEXTS.usage;

/** The Usage tab: credits by category over time, the table under it, and its CSV. */
export function UsageTab({ filters, groups }: { filters: UsageFilters; groups: GroupChoice[] }) {
  const usage = useUsage(filters);
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      const csv = await fetchUsageCsv(filters);
      downloadText(`usage-${filters.org}-${filters.from}-${filters.to}.csv`, [csv.trimEnd()]);
    } catch (error) {
      notifyError(messageOf(error, T.downloadFailed));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={4}>{T.chart}</Title>
        <Group gap="sm">
          {usage.isFetching && <Loader size="sm" aria-label={T.loading} />}
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            loading={downloading}
            onClick={download}
          >
            {T.download}
          </Button>
        </Group>
      </Group>
      {usage.isError ? (
        <Alert color="red">{messageOf(usage.error, T.loadFailed)}</Alert>
      ) : !usage.data ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : (
        <UsageView usage={usage.data} groups={groups} />
      )}
    </Stack>
  );
}

function UsageView({ usage, groups }: { usage: Usage; groups: GroupChoice[] }) {
  const rows = usageRows(usage);
  if (!rows.length) return <EmptyState title={T.empty} description={T.emptyHint} />;
  const chart = usageChart(usage, groups);
  const withProject = groups.includes('project');
  const withDate = groups.includes('day') || groups.includes('month');
  const C = T.columns;
  return (
    <>
      <CategoryChart chart={chart} label={T.chart} h={280} />
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{C.cluster}</Table.Th>
            {withProject && <Table.Th>{C.project}</Table.Th>}
            {withDate && <Table.Th>{C.date}</Table.Th>}
            <Table.Th>{C.category}</Table.Th>
            <Table.Th ta="right">{C.credits}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r, i) => (
            <Table.Tr key={i}>
              <Table.Td>{r.cluster}</Table.Td>
              {withProject && <Table.Td>{r.project}</Table.Td>}
              {withDate && <Table.Td>{r.date}</Table.Td>}
              <Table.Td>{categoryLabel(r.category)}</Table.Td>
              <Table.Td ta="right">{formatCredits(r.credits)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th colSpan={2 + Number(withProject) + Number(withDate)}>{T.total}</Table.Th>
            <Table.Th ta="right">
              <Text fw={700} size="sm">
                {formatCredits(usage.total)}
              </Text>
            </Table.Th>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </>
  );
}
