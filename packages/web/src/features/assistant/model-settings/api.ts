import {
  copilotModelPath,
  type CopilotModelChoice,
  type CopilotModelChoices,
  type CopilotModelSetting,
} from '@orrery/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/client';

const keyOf = (org: string) => ['copilot-model', org] as const;

export const useModelSetting = (org: string) =>
  useQuery({
    queryKey: keyOf(org),
    queryFn: ({ signal }) => request<CopilotModelSetting>(copilotModelPath(org), { signal }),
  });

export const useModelChoices = (org: string, enabled: boolean) =>
  useQuery({
    queryKey: [...keyOf(org), 'choices'],
    enabled,
    queryFn: ({ signal }) =>
      request<CopilotModelChoices>(`${copilotModelPath(org)}/choices`, { signal }),
  });

export function useSaveModel(org: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (appInstanceId: CopilotModelChoice['app_instance_id']) =>
      request<CopilotModelSetting>(copilotModelPath(org), {
        method: 'PUT',
        body: { appInstanceId },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: keyOf(org) }),
  });
}
