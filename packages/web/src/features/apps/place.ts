import type { AppsPlace } from '../../api/apps';
import { usePlatformContext } from '../../app/context/platform-context';

/** The current project as the apps API's scope, or null while none is chosen. */
export function useAppsPlace(): AppsPlace | null {
  const { names } = usePlatformContext();
  if (!names.cluster || !names.org || !names.project) return null;
  return { clusterName: names.cluster, orgName: names.org, projectName: names.project };
}
