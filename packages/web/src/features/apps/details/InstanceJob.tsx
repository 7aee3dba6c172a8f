import { lazy, Suspense } from 'react';
import { Alert, Loader } from '@mantine/core';
import { useJob } from '../../../api/jobs';
import { messageOf } from '../../../ui/errors';
import { LogsTab } from '../../jobs/logs/LogsTab';
import { useJobCluster } from '../../jobs/job/useJobCluster';
import { useJobTop } from '../../jobs/job/useJobTop';
import { APPS_TEXTS } from '../texts';

const ObservabilityTab = lazy(() => import('../../jobs/observability/ObservabilityTab'));

/**
 * Observability and Log of an instance follow its main job with the jobs area's own viewers:
 * an instance's logs are its jobs' logs.
 */
export function InstanceJobTab({ jobId, view }: { jobId: string | null; view: 'load' | 'log' }) {
  if (!jobId) return <Alert color="gray">{APPS_TEXTS.details.noJob}</Alert>;
  return <JobView jobId={jobId} view={view} />;
}

function JobView({ jobId, view }: { jobId: string; view: 'load' | 'log' }) {
  const query = useJob(jobId);
  const cluster = useJobCluster(query.data);
  const top = useJobTop(
    view === 'load' ? query.data : undefined,
    cluster.monitoringUrl,
    cluster.token,
  );
  if (query.isError)
    return <Alert color="red">{messageOf(query.error, APPS_TEXTS.somethingWentWrong)}</Alert>;
  if (!query.data) return <Loader size="sm" aria-label={APPS_TEXTS.loading} />;
  if (view === 'log')
    return <LogsTab job={query.data} monitoringUrl={cluster.monitoringUrl} token={cluster.token} />;
  return (
    <Suspense fallback={<Loader size="sm" />}>
      <ObservabilityTab points={top.points} state={top.state} />
    </Suspense>
  );
}
