import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconHourglass, IconInfoCircle } from '@tabler/icons-react';
import type { Job } from '../../../api/jobs';
import { JOBS_TEXTS } from '../texts';

/**
 * What the reader of a job page must know before anything else: why a pending job is not
 * running yet (the scheduler's reason: quota, credits, capacity, schedule timeout), that the
 * process runtime runs on the server's machine (a note: where it is fully sandboxed there is
 * nothing to warn of), and the runtime's warning when this host cannot enforce part of the
 * isolation or of the limits.
 */
export function JobNotices({ job }: { job: Job }) {
  const { reason, description } = job.history;
  return (
    <Stack gap="xs">
      {job.status === 'pending' && (
        <Alert color="yellow" icon={<IconHourglass size={18} />} title={JOBS_TEXTS.pending.title}>
          <Text size="sm">
            {(reason && JOBS_TEXTS.pending.reasons[reason]) || JOBS_TEXTS.pending.waiting}
          </Text>
          {(reason || description) && (
            <Text size="sm" c="dimmed">
              {[reason, description].filter(Boolean).join(': ')}
            </Text>
          )}
        </Alert>
      )}
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
