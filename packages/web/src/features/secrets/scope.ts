import { secretUri } from '@orrery/contract';
import { useProjectCan } from '../../api/project-can';
import type { SecretScope } from '../../api/secrets';
import { usePlatformContext } from '../../app/context/platform-context';

/** The current project as a secrets scope, or null while no project is chosen. */
export function useSecretScope(): SecretScope | null {
  const { names } = usePlatformContext();
  if (!names.cluster || !names.org || !names.project) return null;
  return { clusterName: names.cluster, orgName: names.org, projectName: names.project };
}

/**
 * Creation is for project managers (workloads §5, §6): the permission engine's `manage` on
 * `secret://CLUSTER/ORG/PROJECT`, as the create route checks.
 */
export const useSecretsManage = () => useProjectCan('manage', 'secret');

/** How forms refer to a secret: the short form users type, and the full resource URI. */
export const secretPath = (key: string) => `secret:${key}`;
export const secretFullUri = (scope: SecretScope, key: string) =>
  secretUri(scope.clusterName, scope.orgName, scope.projectName, key);
