import { Alert, Loader, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import {
  formatAmount,
  QUOTA_RESOURCE_LABELS,
  QUOTA_RESOURCES,
  type ClusterQueue,
  type JobStatus,
  type QueueStanding,
  type ResourceAmounts,
} from '@orrery/contract';
import { isWaiting } from '../../api/jobs';
import { useClusterQueue } from '../../api/scheduling';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { messageOf } from '../../ui/errors';
import { JobStatusBadge } from '../jobs/JobStatusBadge';
import { ADMIN_UI } from './texts';

const Q = ADMIN_UI.queue;

/** The amounts of a set, in the contract's order of resources, leaving out what is zero. */
const amounts = (a: ResourceAmounts) =>
  QUOTA_RESOURCES.filter((r) => a[r]).map((r) => formatAmount(r, a[r]!));
const amountsText = (a: ResourceAmounts) => amounts(a).join(', ') || Q.none;

/** Each limited resource on a line: its nominal share, and how much more it may borrow. */
function quotaLines(quota: QueueStanding['quota']): string[] {
  if (!quota) return [Q.unlimited];
  const lines = QUOTA_RESOURCES.filter((r) => quota.nominal[r] != null).map((r) => {
    const borrow = quota.borrowing_limit[r];
    const nominal = formatAmount(r, quota.nominal[r]!);
    return borrow == null ? nominal : `${nominal}, ${Q.mayBorrow(formatAmount(r, borrow))}`;
  });
  return lines.length ? lines : [Q.unlimited];
}

/** The weighted dominant share as a percentage of the fair share, with what it means. */
function shareOf(share: number) {
  const percent = Math.round(share * 100);
  return {
    percent: `${percent} %`,
    hint: percent < 100 ? Q.below : percent === 100 ? Q.at : Q.above,
  };
}

/**
 * The cluster's queue (docs/scheduling.md): its capacity and what is free, every organization
 * and its projects with quota, use, borrowed amounts and fair-share standing, and the jobs that
 * wait or run in admission order. Read again every 10 seconds, as the queue moves.
 */
export function QueueTab({ cluster }: { cluster: string }) {
  const queue = useClusterQueue(cluster);
  if (queue.isPending) return <Loader aria-label={ADMIN_UI.clusterTabs.queue} />;
  const error = queue.isError && (
    <Alert color="red">{messageOf(queue.error, ADMIN_UI.loadFailed)}</Alert>
  );
  if (!queue.data) return error;
  const data = queue.data;
  return (
    <Stack>
      {error}
      <Capacity data={data} />
      <Standings data={data} />
      <Jobs data={data} />
    </Stack>
  );
}

function Capacity({ data }: { data: ClusterQueue }) {
  const resources = QUOTA_RESOURCES.filter((r) => data.capacity[r] != null);
  return (
    <Stack gap="xs">
      <Title order={4}>{Q.summary}</Title>
      <DataTable
        table={{ withTableBorder: true, maw: 560, 'aria-label': Q.summary }}
        rows={resources}
        rowKey={(r) => r}
        columns={[
          { header: Q.resource, cell: (r) => QUOTA_RESOURCE_LABELS[r] },
          { header: Q.capacity, cell: (r) => formatAmount(r, data.capacity[r] ?? 0) },
          {
            header: Q.inUse,
            cell: (r) =>
              formatAmount(r, Math.max(0, (data.capacity[r] ?? 0) - (data.free[r] ?? 0))),
          },
          { header: Q.free, cell: (r) => formatAmount(r, data.free[r] ?? 0) },
        ]}
      />
    </Stack>
  );
}

function StandingRow({ name, s, nested }: { name: string; s: QueueStanding; nested: boolean }) {
  const share = shareOf(s.share);
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={nested ? 400 : 600} pl={nested ? 'xl' : undefined}>
        {name}
      </Table.Th>
      <Table.Td>
        {quotaLines(s.quota).map((l) => (
          <Text key={l} size="sm">
            {l}
          </Text>
        ))}
      </Table.Td>
      <Table.Td>{amountsText(s.used)}</Table.Td>
      <Table.Td>{amountsText(s.borrowed)}</Table.Td>
      <Table.Td>
        <Text size="sm">{share.percent}</Text>
        <Text size="xs" c="dimmed">
          {share.hint}
        </Text>
      </Table.Td>
      <Table.Td>{s.running}</Table.Td>
      <Table.Td>{s.pending}</Table.Td>
    </Table.Tr>
  );
}

function Standings({ data }: { data: ClusterQueue }) {
  return (
    <Stack gap="xs">
      <Title order={4}>{Q.standings}</Title>
      {data.orgs.length === 0 ? (
        <EmptyState title={Q.noOrgs} />
      ) : (
        <Table striped verticalSpacing="xs" aria-label={Q.standings}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{Q.who}</Table.Th>
              <Table.Th>{Q.quota}</Table.Th>
              <Table.Th>{Q.used}</Table.Th>
              <Table.Th>{Q.borrowed}</Table.Th>
              <Table.Th>
                <Tooltip label={Q.shareHint} multiline w={280}>
                  <span>{Q.share}</span>
                </Tooltip>
              </Table.Th>
              <Table.Th>{Q.running}</Table.Th>
              <Table.Th>{Q.pending}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.orgs.flatMap((o) => [
              <StandingRow key={o.org} name={o.org} s={o} nested={false} />,
              ...o.projects.map((p) => (
                <StandingRow key={`${o.org}/${p.project}`} name={p.project} s={p} nested />
              )),
            ])}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

type QueueJob = ClusterQueue['jobs'][number];
/** Admission order: the waiting by their place, then those without one, then the running. */
const rank = (j: QueueJob) => (j.position !== null ? 0 : isWaiting(j.status) ? 1 : 2);
const byOrder = (a: QueueJob, b: QueueJob) =>
  rank(a) - rank(b) || (a.position ?? 0) - (b.position ?? 0);

function Jobs({ data }: { data: ClusterQueue }) {
  const jobs = [...data.jobs].sort(byOrder);
  return (
    <Stack gap="xs">
      <Title order={4}>{Q.jobs}</Title>
      {jobs.length === 0 ? (
        <EmptyState title={Q.noJobs} />
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <DataTable
            table={{ striped: true, verticalSpacing: 'xs', 'aria-label': Q.jobs }}
            rows={jobs}
            rowKey={(j) => j.id}
            columns={[
              {
                header: Q.position,
                cell: (j) => (j.position === null ? Q.none : `#${j.position}`),
              },
              {
                header: Q.job,
                cell: (j) => (
                  <>
                    <Text size="sm" fw={500}>
                      {j.name ?? j.id}
                    </Text>
                    {j.name && (
                      <Text size="xs" c="dimmed" ff="monospace">
                        {j.id}
                      </Text>
                    )}
                  </>
                ),
              },
              { header: Q.who, cell: (j) => `${j.org} / ${j.project}` },
              { header: Q.owner, cell: (j) => j.owner },
              {
                header: Q.status,
                cell: (j) => <JobStatusBadge status={j.status as JobStatus} />,
                // A badge shrinks to an ellipsis where the table is tight: it keeps its word.
                td: { miw: 110 },
              },
              { header: Q.priority, cell: (j) => j.priority },
              { header: Q.preemptible, cell: (j) => (j.preemptible ? ADMIN_UI.yes : ADMIN_UI.no) },
              { header: Q.requests, cell: (j) => amountsText(j.requests) },
              {
                header: Q.message,
                cell: (j) => <Text size="sm">{j.message ?? Q.none}</Text>,
                td: { maw: 360 },
              },
            ]}
          />
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
