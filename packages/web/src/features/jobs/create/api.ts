import {
  type Camel,
  type JobCreateFromPreset,
  type JobRuntimeInfo,
  type JobWire,
} from '@orrery/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { API, request } from '../../../api/client';

export type JobCreation = Camel<JobCreateFromPreset>;

/** `POST /api/v1/jobs?from_preset`: 202 with the new job. */
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
