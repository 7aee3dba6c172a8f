import { secretUri, type ProjectPlace } from '@orrery/contract';
import { useProjectCan } from '../../api/project-can';

/**
 * Creation is for project managers: the permission engine's `manage` on
 * `secret://CLUSTER/ORG/PROJECT`, as the create route checks.
 */
export const useSecretsManage = () => useProjectCan('manage', 'secret');

/** How forms refer to a secret: the short form users type, and the full resource URI. */
export const secretPath = (key: string) => `secret:${key}`;
export const secretFullUri = (scope: ProjectPlace, key: string) =>
  secretUri(scope.clusterName, scope.orgName, scope.projectName, key);
