import { Anchor, Group, Text } from '@mantine/core';
import { useLocation } from 'react-router';
import type { AppInstance } from '../../../api/apps';
import { ContextLink } from '../../../app/context/ContextLink';
import { JobStatusBadge } from '../../jobs/JobStatusBadge';
import { APPS_TEXTS } from '../texts';
import { useInstallerJob } from './useInstallerJob';

const T = APPS_TEXTS.install;

/** What the install page hands the instance page: the job its install answer named. */
export interface InstallState {
  installerJobId?: string | null;
}

/**
 * The install's progress on the instance page: the installer job's status and reason, polled
 * every 5 s, until the instance is healthy or errored. Without the install's answer (a reload,
 * a link) it follows the instance's main job.
 */
export function InstallProgress(props: { app: AppInstance; jobId: string | null }) {
  const state = useLocation().state as InstallState | null;
  const jobId = state?.installerJobId ?? props.jobId;
  const { installing, job } = useInstallerJob(props.app, jobId);
  if (!installing || !job) return null;
  const reason = job.history.description || job.history.reason;
  return (
    <Group gap="xs" role="status" aria-label={T.installerJob}>
      <Text size="sm" fw={600}>
        {T.installerJob}
      </Text>
      <Anchor component={ContextLink} to={`/jobs/${encodeURIComponent(job.id)}`} size="sm">
        {job.name ?? job.id}
      </Anchor>
      <JobStatusBadge status={job.status} />
      {reason && (
        <Text size="sm" c="dimmed">
          {reason}
        </Text>
      )}
    </Group>
  );
}
