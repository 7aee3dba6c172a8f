import { jobUri, type ProjectPlace } from '@orrery/contract';
import { useCanOne, withRule } from '../../api/permissions';
import { useJobRuntime } from './create/api';

/**
 * Whether the user may create a job in the project: `write` on its jobs, and an installation
 * that runs jobs at all (no sandbox refuses every job, ORRERY_UNSANDBOXED_JOBS), with the reason.
 */
export function useCanCreateJob(place: ProjectPlace) {
  const refused = useJobRuntime().data?.refusedReason ?? null;
  return withRule(
    useCanOne({
      uri: jobUri(place.clusterName, place.orgName, place.projectName),
      action: 'write',
    }),
    { enabled: !refused, why: refused },
  );
}
