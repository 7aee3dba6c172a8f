import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isFinalJobStatus } from '@orrery/contract';
import { appsKeys, type AppInstance } from '../../../api/apps';
import { getJob, jobKeys } from '../../../api/jobs';
import { useJobCluster } from '../../jobs/job/useJobCluster';
import { useJobStatusPush } from '../../jobs/job/useJobStatusPush';

/** The app installer job is polled every 5 s. */
export const INSTALLER_JOB_REFRESH_MS = 5_000;
/** While the instance lags behind its ended job, it is read again this often. */
export const INSTANCE_CATCH_UP_MS = 1_000;
/** Until the instance is healthy or errored (or goes away), the install is in progress. */
const INSTALLING = new Set(['queued', 'progressing']);

/**
 * The job an install started (`outputParams.jobId`), polled every 5 s while the instance is
 * starting, and followed as the server pushes its status. The instance's state follows its job,
 * so each new job status refreshes the instance at once: a failed job shows as errored without
 * waiting for the instance's own 10 s poll. `ended` says the job has finished while the instance
 * still says it starts (the server derives its state a moment later): the page then shows the
 * job's end, not a wait.
 */
export function useInstallerJob(
  app: Pick<AppInstance, 'id' | 'state' | 'clusterName'>,
  jobId: string | null,
) {
  const installing = !!jobId && INSTALLING.has(app.state);
  const client = useQueryClient();
  const job = useQuery({
    queryKey: jobKeys.one(jobId ?? ''),
    queryFn: ({ signal }) => getJob(jobId!, signal),
    enabled: installing,
    refetchInterval: installing ? INSTALLER_JOB_REFRESH_MS : false,
    retry: false,
  });
  const cluster = useJobCluster(app);
  useJobStatusPush(installing ? job.data : undefined, cluster.monitoringUrl, cluster.token);
  const status = job.data?.status;
  const ended = installing && !!status && isFinalJobStatus(status);
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (status && status !== seen.current && (seen.current || ended))
      void client.invalidateQueries({ queryKey: appsKeys.instance(app.id), exact: true });
    seen.current = status;
  }, [status, ended, app.id, client]);
  useEffect(() => {
    if (!ended) return;
    const timer = setInterval(
      () => void client.invalidateQueries({ queryKey: appsKeys.instance(app.id), exact: true }),
      INSTANCE_CATCH_UP_MS,
    );
    return () => clearInterval(timer);
  }, [ended, app.id, client]);
  return { installing, ended, job: installing ? job.data : undefined };
}
