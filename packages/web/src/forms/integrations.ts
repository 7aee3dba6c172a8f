import { useQuery } from '@tanstack/react-query';
import { appsScopePath, type ProjectPlace } from '@orrery/contract';
import {
  INSTANCES_REFRESH_MS,
  instancesQuery,
  templatesQuery,
  type AppInstance,
  type AppState,
} from '../api/apps';
import { request } from '../api/client';

/** One output of an installed app that an integration input may take. */
export interface IntegrationCandidate {
  instanceId: string;
  /** The instance's display name (else its name), as the installed list shows it. */
  instanceName: string;
  templateTitle: string | null;
  state: AppState | null;
  type: string;
  path: string;
  value: unknown;
}
interface ValuesWire {
  items: { instance_id: string; type: string; path: string; value: unknown }[];
}

const labelOf = (i: Pick<AppInstance, 'displayName' | 'name'>) => i.displayName || i.name;

/**
 * The candidates for an integration input of a class, named as people know the instances: the
 * values call answers ids only, so they are joined with the project's instances and the
 * catalogue's titles (the installed list's cached queries). A failed lookup is an empty list
 * (integration lookup failures are swallowed silently).
 */
export function useIntegrationCandidates(
  place: ProjectPlace | null,
  type: string,
  enabled: boolean,
) {
  const instances = useProjectInstances(place, enabled);
  const templates = useQuery({
    ...templatesQuery(place ?? NO_PLACE),
    enabled: enabled && place !== null,
  });
  const values = useQuery({
    queryKey: [
      'apps',
      'integrations',
      place?.clusterName,
      place?.orgName,
      place?.projectName,
      type,
    ],
    enabled: enabled && place !== null,
    queryFn: async ({ signal }) => {
      const p = place!;
      try {
        const body = await request<ValuesWire>(
          `${appsScopePath(p.clusterName, p.orgName, p.projectName)}/instances/values`,
          { query: { type, restore_ref: true }, signal },
        );
        return body.items ?? [];
      } catch {
        return [];
      }
    },
  });
  // Names are a nicety: without them (still loading, or refused) the ids are shown.
  const settled = (q: { isPending: boolean; isError: boolean }) => !q.isPending || q.isError;
  const isPending = values.isPending || !settled(instances) || !settled(templates);
  const data = values.data?.map((v): IntegrationCandidate => {
    const instance = instances.data?.find((i) => i.id === v.instanceId);
    const template = templates.data?.find((t) => t.name === instance?.templateName);
    return {
      ...v,
      instanceName: instance ? labelOf(instance) : v.instanceId,
      templateTitle: template?.title ?? instance?.templateName ?? null,
      state: instance?.state ?? null,
    };
  });
  return { isPending, data };
}

const NO_PLACE: ProjectPlace = { clusterName: '', orgName: '', projectName: '' };

/** The list is refreshed every 15 s anyway; a name need not be fetched again for each input. */
function useProjectInstances(place: ProjectPlace | null, enabled: boolean) {
  return useQuery({
    ...instancesQuery(place ?? NO_PLACE),
    enabled: enabled && place !== null,
    staleTime: INSTANCES_REFRESH_MS,
  });
}

/** The name of the instance an integration refers to, or its id until (or unless) it is known. */
export function useInstanceName(
  place: ProjectPlace | null,
  instanceId: string | null,
): string | null {
  const instances = useProjectInstances(place, instanceId !== null);
  if (instanceId === null) return null;
  const instance = instances.data?.find((i) => i.id === instanceId);
  return instance ? labelOf(instance) : instanceId;
}
