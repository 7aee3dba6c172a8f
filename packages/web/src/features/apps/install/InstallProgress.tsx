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
 * The install's progress on the instance page: the installer job, polled every 5 s and pushed,
 * until the instance is healthy or errored. Without the install's answer (a reload, a link) it
 * follows the instance's main job.
 */
export function useInstallProgress(app: AppInstance, mainJobId: string | null) {
  const state = useLocation().state as InstallState | null;
  return useInstallerJob(app, state?.installerJobId ?? mainJobId);
}

export type InstallProgressState = ReturnType<typeof useInstallProgress>;

/** The installer job's status and reason while the install is in progress. */
export function InstallProgress({ progress }: { progress: InstallProgressState }) {
  const { installing, job } = progress;
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
        <Text size="sm" c={progress.ended && job.status !== 'succeeded' ? 'red' : 'dimmed'}>
          {reason}
        </Text>
      )}
    </Group>
  );
}
