import { isManagerRole, secretUri } from '@orrery/contract';
import type { SecretScope } from '../../api/secrets';
import { usePlatformContext } from '../../app/context/platform-context';
import { useAccount } from '../../app/session/account';

/** The current project as a secrets scope, or null while no project is chosen. */
export function useSecretScope(): SecretScope | null {
  const { names } = usePlatformContext();
  if (!names.cluster || !names.org || !names.project) return null;
  return { clusterName: names.cluster, orgName: names.org, projectName: names.project };
}

/**
 * Creation and deletion are for project managers (workloads §5, §6); the server enforces it, this
 * only hides what would be refused.
 */
export function useCanManageSecrets(): boolean {
  const { project } = usePlatformContext();
  const { user } = useAccount();
  return user.systemRole === 'admin' || isManagerRole(project?.role);
}

/** How forms refer to a secret: the short form users type, and the full resource URI. */
export const secretPath = (key: string) => `secret:${key}`;
export const secretFullUri = (scope: SecretScope, key: string) =>
  secretUri(scope.clusterName, scope.orgName, scope.projectName, key);
