import { Alert, Stack } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import type { Job } from '../../../api/jobs';
import { JOBS_TEXTS } from '../texts';
import { WaitPanel } from './WaitPanel';

/**
 * What the reader of a job page must know before anything else: why a waiting job is not
 * running yet and where it stands in the queue (the scheduler's reasons), that the
 * process runtime runs on the server's machine (a note: where it is fully sandboxed there is
 * nothing to warn of), and the runtime's warning when this host cannot enforce part of the
 * isolation or of the limits.
 */
export function JobNotices({ job }: { job: Job }) {
  return (
    <Stack gap="xs">
      <WaitPanel job={job} />
      {job.runtime === 'process' && (
        <Alert color="blue" icon={<IconInfoCircle size={18} />}>
          {JOBS_TEXTS.runsOnHost}
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
