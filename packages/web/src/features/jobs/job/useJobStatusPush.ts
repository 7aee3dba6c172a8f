import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isFinalJobStatus, toCamel, type JobWire } from '@orrery/contract';
import { jobKeys, statusProtocols, statusUrl, type Job } from '../../../api/jobs';

/**
 * The job's status as the server pushes it (`status_ws`), on top of the page's 10 s poll: each
 * frame is the job as `GET /api/v1/jobs/{id}` answers it and replaces the page's copy at once, so
 * a job that ended a moment after it was created shows as ended, not as pending until the next
 * poll. Open while the job has not finished; the server closes it once it has.
 */
export function useJobStatusPush(
  job: Pick<Job, 'id' | 'status'> | undefined,
  monitoringUrl: string,
  token: string | null,
) {
  const client = useQueryClient();
  const id = job?.id;
  const follow = !!job && !isFinalJobStatus(job.status);
  useEffect(() => {
    if (!id || !follow) return;
    const socket = new WebSocket(statusUrl(monitoringUrl, id), statusProtocols(token));
    socket.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      let job: Job;
      try {
        job = toCamel(JSON.parse(event.data) as JobWire);
      } catch {
        return;
      }
      if (job.id === id) client.setQueryData(jobKeys.one(id), job);
    };
    return () => socket.close();
  }, [id, follow, monitoringUrl, token, client]);
}
