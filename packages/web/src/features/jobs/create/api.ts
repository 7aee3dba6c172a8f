import {
  appsScopePath,
  type Camel,
  type InputSchema,
  type JobCreateFromPreset,
  type JobRuntimeInfo,
  type JobWire,
  type TemplateWire,
} from '@orrery/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { API, request } from '../../../api/client';
import type { FormPlace } from '../../../forms';

/** `GET /apis/apps/v1/cluster/C/org/O/project/P/templates/{name}/{version}` (apolo-wire §12). */
const templateUrl = (p: FormPlace, name: string, version: string) =>
  `${appsScopePath(p.clusterName, p.orgName, p.projectName)}/templates/${encodeURIComponent(name)}/${encodeURIComponent(version)}`;

/** The client keeps `input` as sent (an opaque key), so the schema keeps its wire names. */
export type Template = Omit<Camel<TemplateWire>, 'input'> & { input: InputSchema };

export const useTemplate = (p: FormPlace, name: string, version: string) =>
  useQuery({
    queryKey: ['templates', p.clusterName, p.orgName, p.projectName, name, version],
    queryFn: async ({ signal }): Promise<Template> =>
      request<TemplateWire>(templateUrl(p, name, version), { signal }),
    staleTime: 60_000,
  });

export type JobCreation = Camel<JobCreateFromPreset>;

/** `POST /api/v1/jobs?from_preset` (apolo-wire §2): 202 with the new job. */
export const useCreateJob = () =>
  useMutation({
    mutationFn: (body: JobCreation) =>
      request<JobWire>(`${API.core}/jobs?from_preset`, { method: 'POST', body }),
  });

/** `GET /api/v1/jobs/runtime` (Orrery): how this installation runs jobs. */
export const useJobRuntime = () =>
  useQuery({
    queryKey: ['jobs', 'runtime'],
    queryFn: async ({ signal }) => request<JobRuntimeInfo>(`${API.core}/jobs/runtime`, { signal }),
    staleTime: Infinity,
  });
