import { lazy, Suspense } from 'react';
import { Alert, Loader } from '@mantine/core';
import { useJob } from '../../../api/jobs';
import { messageOf } from '../../../ui/errors';
import { useJobCluster } from '../../jobs/job/useJobCluster';
import { useJobTop } from '../../jobs/job/useJobTop';
import { APPS_TEXTS } from '../texts';

const ObservabilityTab = lazy(() => import('../../jobs/observability/ObservabilityTab'));

/** Observability of an instance follows its main job with the jobs area's own chart. */
export function InstanceJobTab({ jobId }: { jobId: string | null }) {
  if (!jobId) return <Alert color="gray">{APPS_TEXTS.details.noJob}</Alert>;
  return <JobLoad jobId={jobId} />;
}

function JobLoad({ jobId }: { jobId: string }) {
  const query = useJob(jobId);
  const cluster = useJobCluster(query.data);
  const top = useJobTop(query.data, cluster.monitoringUrl, cluster.token);
  if (query.isError)
    return <Alert color="red">{messageOf(query.error, APPS_TEXTS.somethingWentWrong)}</Alert>;
  if (!query.data) return <Loader size="sm" aria-label={APPS_TEXTS.loading} />;
  return (
    <Suspense fallback={<Loader size="sm" />}>
      <ObservabilityTab points={top.points} state={top.state} />
    </Suspense>
  );
}
