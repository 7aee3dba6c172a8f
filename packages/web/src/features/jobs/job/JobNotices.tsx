import { Alert, Stack } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle, IconPlugConnected } from '@tabler/icons-react';
import { isFinalJobStatus } from '@orrery/contract';
import type { Job } from '../../../api/jobs';
import { useJobRuntime } from '../create/api';
import { JOBS_TEXTS } from '../texts';
import { WaitPanel } from './WaitPanel';

const L = JOBS_TEXTS.listenOnPort;

/**
 * What the reader of a job page must know before anything else: why a waiting job is not
 * running yet and where it stands in the queue (the scheduler's reasons), that the
 * process runtime runs on the server's machine (a note: where it is fully sandboxed there is
 * nothing to warn of), that the job must listen on `$PORT` where the runtime does not give it the
 * port it declared, and the runtime's warning when this host cannot enforce part of the
 * isolation or of the limits.
 */
export function JobNotices({ job }: { job: Job }) {
  const runtime = useJobRuntime().data;
  // The job's port is not the one it declared: said while it may still be made to listen there.
  const listenOnPort =
    !!job.container.http &&
    !!runtime?.httpPortAssigned &&
    runtime.name === job.runtime &&
    !isFinalJobStatus(job.status);
  return (
    <Stack gap="xs">
      <WaitPanel job={job} />
      {job.runtime === 'process' && (
        <Alert color="blue" icon={<IconInfoCircle size={18} />}>
          {JOBS_TEXTS.runsOnHost}
        </Alert>
      )}
      {listenOnPort && (
        <Alert color="yellow" icon={<IconPlugConnected size={18} />} title={L.title}>
          {L.text(job.container.http?.port)}
        </Alert>
      )}
      {job.runtimeWarning && (
        <Alert
          color="orange"
          icon={<IconAlertTriangle size={18} />}
          title={JOBS_TEXTS.runtimeWarning}
        >
          {job.runtimeWarning}
        </Alert>
      )}
    </Stack>
  );
}
