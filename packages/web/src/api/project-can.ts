import { formatUri, type Action, type Scheme } from '@orrery/contract';
import { usePlatformContext } from '../app/context/platform-context';
import { useCan, type Can } from './permissions';

/** A URI under the current project: `(scheme, ...below) => 'scheme://CLUSTER/ORG/PROJECT/…'`. */
export type ProjectUri = (scheme: Scheme, ...below: string[]) => string;

/**
 * How the current project's resources are named for the permission engine, or null while no
 * project is chosen (the questions then stay pending: nothing is offered).
 */
export function useProjectUri(): ProjectUri | null {
  const { names } = usePlatformContext();
  const { cluster, org, project } = names;
  if (!cluster || !org || !project) return null;
  return (scheme, ...below) => formatUri(scheme, cluster, org, project, ...below);
}

/**
 * `useCan` for one action on a resource of the current project, e.g. Start bake is
 * `useProjectCan('write', 'flow')` (`write` on `flow://CLUSTER/ORG/PROJECT`), deleting a secret
 * `useProjectCan('manage', 'secret', key)`.
 */
export function useProjectCan(action: Action, scheme: Scheme, ...below: string[]): Can {
  const uri = useProjectUri();
  return useCan([uri && { uri: uri(scheme, ...below), action }])[0];
}

/** One answer per item (a table's rows): `action` on `scheme://…/PROJECT/<key of item>`. */
export function useProjectCanEach(action: Action, scheme: Scheme, keys: string[]): Can[] {
  const uri = useProjectUri();
  return useCan(keys.map((key) => uri && { uri: uri(scheme, key), action }));
}
