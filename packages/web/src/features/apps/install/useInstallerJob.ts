import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { appsKeys, type AppInstance } from '../../../api/apps';
import { getJob, jobKeys } from '../../../api/jobs';

/** The app installer job is polled every 5 s. */
export const INSTALLER_JOB_REFRESH_MS = 5_000;
/** Until the instance is healthy or errored (or goes away), the install is in progress. */
const INSTALLING = new Set(['queued', 'progressing']);

/**
 * The job an install started (`outputParams.jobId`), polled every 5 s while the instance is
 * starting. The instance's state follows its job, so each new job status refreshes the instance
 * at once: a failed job shows as errored without waiting for the instance's own 10 s poll.
 */
export function useInstallerJob(app: Pick<AppInstance, 'id' | 'state'>, jobId: string | null) {
  const installing = !!jobId && INSTALLING.has(app.state);
  const client = useQueryClient();
  const job = useQuery({
    queryKey: jobKeys.one(jobId ?? ''),
    queryFn: ({ signal }) => getJob(jobId!, signal),
    enabled: installing,
    refetchInterval: installing ? INSTALLER_JOB_REFRESH_MS : false,
    retry: false,
  });
  const status = job.data?.status;
  const seen = useRef(status);
  useEffect(() => {
    if (status && seen.current && status !== seen.current)
      void client.invalidateQueries({ queryKey: appsKeys.instance(app.id), exact: true });
    seen.current = status;
  }, [status, app.id, client]);
  return { installing, job: installing ? job.data : undefined };
}
