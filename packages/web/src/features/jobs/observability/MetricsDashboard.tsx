import { Alert, Anchor, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { JobMetrics } from '@orrery/contract';
import { Link } from 'react-router';
import { API, request } from '../../../api/client';
import type { Job } from '../../../api/jobs';
import { messageOf } from '../../../ui/errors';
import { jobLabel } from '../rules';
import { JOBS_TEXTS } from '../texts';
import { toPoint } from '../job/useJobTop';
import { LoadCharts } from './LoadCharts';

const T = JOBS_TEXTS.metrics;
/** The dashboard refreshes every 10 seconds and animates its charts over 2 s. */
export const METRICS_REFRESH_MS = 10_000;
export const METRICS_ANIMATION_MS = 2_000;
/** What the dashboard shows: the last 15 minutes. */
export const METRICS_WINDOW_S = 15 * 60;

/** `GET /api/v1/jobs/{id}/metrics`: what the server recorded of the job's last 15 minutes. */
export const useJobMetrics = (id: string) =>
  useQuery({
    queryKey: ['jobs', id, 'metrics'],
    queryFn: async ({ signal }) =>
      request<JobMetrics>(`${API.core}/jobs/${encodeURIComponent(id)}/metrics`, { signal }),
    refetchInterval: METRICS_REFRESH_MS,
  });

/** The metrics link's dashboard: the job's load over the last 15 minutes. */
export default function MetricsDashboard({ job, back }: { job: Job; back: string }) {
  const metrics = useJobMetrics(job.id);
  const points = (metrics.data?.samples ?? []).map((s) => toPoint(s, job.container.resources));
  let body;
  if (metrics.isPending) body = <Loader size="sm" aria-label={T.intro} />;
  else if (metrics.isError) body = <Alert color="red">{messageOf(metrics.error, T.failed)}</Alert>;
  else if (!points.length) body = <Alert color="gray">{T.empty}</Alert>;
  else {
    // The axis spans the 15 minutes up to the answer, not only the part that has samples.
    const to = metrics.dataUpdatedAt / 1000;
    body = (
      <LoadCharts
        points={points}
        animationMs={METRICS_ANIMATION_MS}
        span={[to - METRICS_WINDOW_S, to]}
      />
    );
  }
  return (
    <Stack>
      <Anchor component={Link} to={back} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {T.back}
        </Group>
      </Anchor>
      <Title order={3}>{T.title(jobLabel(job))}</Title>
      <Text c="dimmed" size="sm">
        {T.intro}
      </Text>
      {body}
    </Stack>
  );
}
