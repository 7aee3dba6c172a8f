import { Alert, List, Loader, Stack, Text } from '@mantine/core';
import { DataTable } from '../../../ui/DataTable';
import { IconHourglass } from '@tabler/icons-react';
import {
  describeWait,
  formatAmount,
  QUOTA_RESOURCE_LABELS,
  QUOTA_RESOURCES,
  type WaitReason,
} from '@orrery/contract';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isWaiting, jobKeys, type Job } from '../../../api/jobs';
import { useJobScheduling } from '../../../api/scheduling';
import { messageOf } from '../../../ui/errors';
import { JOBS_TEXTS } from '../texts';

const W = JOBS_TEXTS.wait;
/** A node list long enough to say where capacity is, short enough to read at a glance. */
const MAX_NODES = 8;

/**
 * "Why is this job waiting?" (docs/scheduling.md): the scheduler's reasons for a pending or
 * suspended job, each in plain words, and its place in the queue; read again while it waits.
 * The page drops it once the job's status says it runs.
 */
export function WaitPanel({ job }: { job: Job }) {
  const waiting = isWaiting(job.status);
  const scheduling = useJobScheduling(job.id, waiting);
  const client = useQueryClient();
  // The scheduling answer may see the job admitted before the job's own refresh does: the page
  // reads the job at once rather than show a pending job with no reason for up to 10 seconds.
  const admitted = !!scheduling.data && !isWaiting(scheduling.data.status);
  useEffect(() => {
    if (waiting && admitted) void client.invalidateQueries({ queryKey: jobKeys.one(job.id) });
  }, [waiting, admitted, client, job.id]);
  if (!waiting || admitted) return null;
  const data = scheduling.data;
  return (
    <Alert
      color="yellow"
      icon={<IconHourglass size={18} />}
      title={W.title}
      role="region"
      aria-busy={scheduling.isPending}
    >
      <Stack gap="xs">
        {job.status === 'suspended' && <Text size="sm">{W.preempted}</Text>}
        {scheduling.isError ? (
          <Text size="sm" c="red">
            {messageOf(scheduling.error, W.failed)}
          </Text>
        ) : !data ? (
          <Loader size="sm" aria-label={W.loading} />
        ) : (
          <>
            {data.position !== null && (
              <Text size="sm" fw={600}>
                {W.position(data.position)}
              </Text>
            )}
            {data.reasons.length === 0 ? (
              <Text size="sm">{data.message ?? W.waiting}</Text>
            ) : (
              <List size="sm" spacing={4}>
                {data.reasons.map((r, i) => (
                  <List.Item key={i}>
                    <Text size="sm">{describeWait(r)}</Text>
                    {r.kind === 'capacity' && r.free.length > 0 && <FreeNodes reason={r} />}
                  </List.Item>
                ))}
              </List>
            )}
          </>
        )}
      </Stack>
    </Alert>
  );
}

/** What is free where: the job's missing resources first, then the rest any node reports. */
function FreeNodes({ reason }: { reason: Extract<WaitReason, { kind: 'capacity' }> }) {
  const reported = new Set(reason.free.flatMap((n) => Object.keys(n.free)));
  const columns = [
    ...reason.short,
    ...QUOTA_RESOURCES.filter((r) => !reason.short.includes(r) && reported.has(r)),
  ];
  const shown = reason.free.slice(0, MAX_NODES);
  return (
    <Stack gap={2} mt={4}>
      <DataTable
        table={{
          withTableBorder: true,
          fz: 'xs',
          verticalSpacing: 2,
          maw: 640,
          bg: 'var(--mantine-color-body)',
          'aria-label': W.freeWhere,
        }}
        rows={shown}
        rowKey={(n) => `${n.pool}/${n.node}`}
        columns={[
          { header: W.node, cell: (n) => n.node },
          { header: W.pool, cell: (n) => n.pool },
          ...columns.map((r) => ({
            header: QUOTA_RESOURCE_LABELS[r],
            cell: (n: (typeof shown)[number]) => formatAmount(r, n.free[r] ?? 0),
          })),
        ]}
      />
      {reason.free.length > shown.length && (
        <Text size="xs" c="dimmed">
          {W.moreNodes(reason.free.length - shown.length)}
        </Text>
      )}
    </Stack>
  );
}
