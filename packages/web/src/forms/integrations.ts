import { useQuery } from '@tanstack/react-query';
import { appsScopePath } from '@orrery/contract';
import { request } from '../api/client';
import type { FormPlace } from './environment';

/** One output of an installed app that an integration input may take (apolo-apps-wire). */
export interface IntegrationCandidate {
  instanceId: string;
  type: string;
  path: string;
  value: unknown;
}
interface ValuesWire {
  items: { instance_id: string; type: string; path: string; value: unknown }[];
}

/**
 * The candidates for an integration input of a class. A failed lookup is an empty list
 * (workloads §8: integration lookup failures are swallowed silently).
 */
export function useIntegrationCandidates(place: FormPlace | null, type: string, enabled: boolean) {
  return useQuery({
    queryKey: [
      'apps',
      'integrations',
      place?.clusterName,
      place?.orgName,
      place?.projectName,
      type,
    ],
    enabled: enabled && place !== null,
    queryFn: async ({ signal }): Promise<IntegrationCandidate[]> => {
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
}
