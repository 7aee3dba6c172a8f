import { Alert, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { BarChart, LineChart } from '@mantine/charts';
import { useState, type ReactNode } from 'react';
import { DataTable, NUMERIC } from '../../../ui/DataTable';
import { messageOf } from '../../../ui/errors';
import { formatCredits } from '../credits';
import { defaultFilters, todayUtc } from '../filters/filters';
import { PeriodFilters, type Period } from '../filters/PeriodFilters';
import { CategoryChart } from '../usage/CategoryChart';
import { categoryLabel, usageChart } from '../usage/usage-view';
import {
  usePoolUtilisation,
  useReportUsage,
  useTopResources,
  type ReportPeriod,
  type ReportScope,
} from './api';
import { poolPoints, sharesBy, type PoolUtilisation, type ReportUsage } from './report-view';
import { REPORTS_TEXTS as T } from './texts';
import '../styles';

const credits = (n: number) => formatCredits(n.toFixed(4));
/** Axis ticks of small amounts differ past the fourth decimal: three significant digits. */
const axisCredits = (n: number) => n.toLocaleString('en-US', { maximumSignificantDigits: 3 });

/**
 * The reports of one scope (organization, cluster, project, or a whole cluster in the admin
 * area): usage by category over time, by project and by user, and the most expensive jobs and
 * apps, over a period picked as on the billing page (from the start of the month by default).
 */
export function ReportsTab({
  scope,
  withPools = false,
}: {
  scope: ReportScope;
  /** The cluster's node pools over time: for those who manage the cluster. */
  withPools?: boolean;
}) {
  const today = todayUtc();
  const [period, setPeriod] = useState<Period>(() => defaultFilters(today));
  // One project's report has a single project: its split by project says nothing.
  const withProjects = !scope.project;
  const overTime = useReportUsage(scope, period, ['category', 'day']);
  const byProject = useReportUsage(scope, period, ['project'], withProjects);
  const byUser = useReportUsage(scope, period, ['user']);
  const top = useTopResources(scope, period);
  const loading = [overTime, byProject, byUser, top].some((q) => q.isFetching);
  return (
    <Stack>
      <Group align="flex-end" gap="sm">
        <PeriodFilters value={period} onChange={setPeriod} today={today} />
        {loading && <Loader size="sm" aria-label={T.loading} />}
      </Group>
      <Report title={T.overTime} query={overTime}>
        {(usage) => <OverTime usage={usage} />}
      </Report>
      <SimpleGrid cols={{ base: 1, md: withProjects ? 2 : 1 }}>
        {withProjects && (
          <Report title={T.byProject} query={byProject}>
            {(usage) => (
              <Shares
                usage={usage}
                by="projectName"
                label={T.columns.project}
                title={T.byProject}
              />
            )}
          </Report>
        )}
        <Report title={T.byUser} query={byUser}>
          {(usage) => (
            <Shares usage={usage} by="userName" label={T.columns.user} title={T.byUser} />
          )}
        </Report>
      </SimpleGrid>
      <Report title={T.top} query={top}>
        {(rows) => <TopTable rows={rows} />}
      </Report>
      {withPools && scope.cluster && <Pools cluster={scope.cluster} period={period} />}
    </Stack>
  );
}

/** A report's frame: its title, the server's message on failure, a spinner before the first answer. */
function Report<D>({
  title,
  query,
  children,
}: {
  title: string;
  query: { data?: D; isError: boolean; error: unknown };
  children(data: D): ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Title order={4} mb="sm">
        {title}
      </Title>
      {query.isError ? (
        <Alert color="red">{messageOf(query.error, T.loadFailed)}</Alert>
      ) : query.data === undefined ? (
        <Loader size="sm" />
      ) : (
        children(query.data)
      )}
    </Paper>
  );
}

const Empty = () => <Text c="dimmed">{T.empty}</Text>;

function OverTime({ usage }: { usage: ReportUsage }) {
  const chart = usageChart(usage, ['day']);
  if (!chart.data.length) return <Empty />;
  return (
    <CategoryChart
      chart={chart}
      label={T.overTime}
      h={260}
      yAxisProps={{ width: 80 }}
      valueFormatter={axisCredits}
    />
  );
}

function Shares({
  usage,
  by,
  label,
  title,
}: {
  usage: ReportUsage;
  by: 'projectName' | 'userName';
  label: string;
  title: string;
}) {
  const shares = sharesBy(usage, by, T.noUser);
  if (!shares.length) return <Empty />;
  return (
    <Stack gap="sm">
      <div role="figure" aria-label={title}>
        <BarChart
          h={Math.max(120, 36 * shares.length)}
          data={shares}
          dataKey="name"
          orientation="vertical"
          yAxisProps={{ width: 100 }}
          valueFormatter={axisCredits}
          series={[{ name: 'credits', label: T.columns.credits, color: 'blue.6' }]}
          barProps={{ isAnimationActive: false }}
        />
      </div>
      <DataTable
        table={{ striped: true }}
        rows={shares}
        rowKey={(s) => s.name}
        columns={[
          { header: label, cell: (s) => s.name },
          { header: T.columns.credits, ...NUMERIC, cell: (s) => credits(s.credits) },
        ]}
        foot={
          <Table.Tr>
            <Table.Th>{T.total}</Table.Th>
            <Table.Th ta="right">{formatCredits(usage.total)}</Table.Th>
          </Table.Tr>
        }
      />
    </Stack>
  );
}

function TopTable({ rows }: { rows: ReturnType<typeof useTopResources>['data'] & object }) {
  if (!rows.length) return <Empty />;
  const C = T.columns;
  return (
    <DataTable
      table={{ striped: true }}
      rows={rows}
      rowKey={(r) => `${r.category}/${r.projectName}/${r.resourceId}/${r.userName}`}
      columns={[
        {
          header: C.resource,
          // A job by its name, its id beneath; a job without a name, and the rest, by their id.
          cell: (r) =>
            r.resourceName ? (
              <Stack gap={0}>
                <Text size="sm">{r.resourceName}</Text>
                <Text size="xs" c="dimmed">
                  {r.resourceId}
                </Text>
              </Stack>
            ) : (
              r.resourceId
            ),
        },
        { header: C.category, cell: (r) => categoryLabel(r.category) },
        { header: C.project, cell: (r) => r.projectName },
        { header: C.user, cell: (r) => r.userName ?? T.noUser },
        { header: C.credits, ...NUMERIC, cell: (r) => formatCredits(r.credits) },
      ]}
    />
  );
}

function Pools({ cluster, period }: { cluster: string; period: ReportPeriod }) {
  const pools = usePoolUtilisation(cluster, period);
  return (
    <Report title={T.pools} query={pools}>
      {(u: PoolUtilisation) =>
        u.pools.length ? (
          u.pools.map((p) => <PoolChart key={p.poolName} pool={p} />)
        ) : (
          <Text c="dimmed">{T.noSamples}</Text>
        )
      }
    </Report>
  );
}

function PoolChart({ pool }: { pool: PoolUtilisation['pools'][number] }) {
  const { data, withGpus } = poolPoints(pool.samples);
  const S = T.series;
  return (
    <div role="figure" aria-label={T.pool(pool.poolName)}>
      <Text size="sm" fw={500}>
        {T.pool(pool.poolName)}
      </Text>
      <LineChart
        h={220}
        data={data}
        dataKey="at"
        withLegend
        yAxisProps={{ domain: [0, 100] }}
        series={[
          { name: 'cpu', label: S.cpu, color: 'blue.6' },
          { name: 'memory', label: S.memory, color: 'teal.6' },
          ...(withGpus ? [{ name: 'gpu', label: S.gpu, color: 'grape.6' }] : []),
        ]}
        lineProps={{ isAnimationActive: false }}
        withDots={false}
      />
    </div>
  );
}
