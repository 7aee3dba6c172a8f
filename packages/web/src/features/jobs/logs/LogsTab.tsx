import { useState } from 'react';
import type { Job } from '../../../api/jobs';
import { jobLabel } from '../rules';
import { JOBS_TEXTS } from '../texts';
import { LogView } from './LogView';
import { useLogStream } from './useLogStream';

/**
 * Logs: the job's log, streamed while it runs, in the shared log viewer; with `worker`, that
 * worker's own output (a job of several workers).
 */
export function LogsTab(props: {
  job: Job;
  monitoringUrl: string;
  token: string | null;
  worker?: number;
}) {
  const { job, worker } = props;
  const [timestamps, setTimestamps] = useState(false);
  const [reload, setReload] = useState(0);
  const log = useLogStream({
    monitoringUrl: props.monitoringUrl,
    jobId: job.id,
    token: props.token,
    timestamps,
    reload,
    worker,
  });
  return (
    <LogView
      lines={log.lines.current}
      count={log.count}
      status={log.status}
      error={log.error}
      region={worker === undefined ? JOBS_TEXTS.logs.region : JOBS_TEXTS.workers.log(worker)}
      fileName={`${jobLabel(job)}${worker === undefined ? '' : `.worker-${worker}`}.log`}
      timestamps={timestamps}
      onTimestamps={setTimestamps}
      onReload={() => setReload((n) => n + 1)}
    />
  );
}
