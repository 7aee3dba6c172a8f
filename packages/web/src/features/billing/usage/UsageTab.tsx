import { Alert, Button, Center, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { fetchUsageCsv, useUsage, type UsageFilters, type Usage } from '../../../api/billing';
import { messageOf } from '../../../ui/errors';
import { DataTable, NUMERIC } from '../../../ui/DataTable';
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
      <DataTable
        table={{ striped: true }}
        rows={rows}
        rowKey={(_, i) => i}
        columns={[
          { header: C.cluster, cell: (r) => r.cluster },
          withProject && { header: C.project, cell: (r) => r.project },
          withDate && { header: C.date, cell: (r) => r.date },
          { header: C.category, cell: (r) => categoryLabel(r.category) },
          {
            header: C.credits,
            ...NUMERIC,
            cell: (r) => formatCredits(r.credits),
          },
        ]}
        foot={
          <Table.Tr>
            <Table.Th colSpan={2 + Number(withProject) + Number(withDate)}>{T.total}</Table.Th>
            <Table.Th ta="right">
              <Text fw={700} size="sm">
                {formatCredits(usage.total)}
              </Text>
            </Table.Th>
          </Table.Tr>
        }
      />
    </>
  );
}
