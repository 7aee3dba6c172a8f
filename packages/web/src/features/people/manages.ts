import { orgUri, projectUri } from '@orrery/contract';
import { useCanOne, type Can } from '../../api/permissions';
import { usePlatformContext } from '../../app/context/platform-context';

/**
 * Whether the signed-in user manages the current organization or project: the permission
 * engine's `manage` on it (Settings, Billing, people), never role names.
 */
export function useOrgManage(): Can {
  const { org } = usePlatformContext();
  return useCanOne(org ? { uri: orgUri(org.name), action: 'manage' } : null);
}
export const useManagesOrg = () => useOrgManage().allowed;

export function useProjectManage(): Can {
  const { project: p } = usePlatformContext();
  return useCanOne(
    p ? { uri: projectUri(p.clusterName, p.orgName, p.name), action: 'manage' } : null,
  );
}
