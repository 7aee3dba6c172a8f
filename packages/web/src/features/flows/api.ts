import {
  FLOW_API,
  type AttemptWire,
  type BakeStart,
  type BakeWire,
  type BatchParam,
  type FlowProjectWire,
  type TaskStatus,
  type TaskWire,
  type ProjectPlace,
} from '@orrery/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request, type RequestOptions } from '../../api/client';
import { BAKE_POLL_MS } from './texts';
import { isLive, taskStatus } from './rules';

export type BatchInfo = {
  batch: string;
  title: string | null;
  params: BatchParam[];
  tasks: number;
};
/** BakeStart without the place, which the console always adds. */
export type BakeStartBody = Omit<BakeStart, 'cluster' | 'org_name' | 'project_name'>;

const flow = <T>(path: string, options: RequestOptions = {}) =>
  request(`${FLOW_API}/${path}`, { ...options, keepKeys: true, rawBody: true }) as Promise<T>;

const place = (p: ProjectPlace) => ({
  cluster: p.clusterName,
  org_name: p.orgName,
  project_name: p.projectName,
});
const seg = encodeURIComponent;

export const flowKeys = {
  all: ['flows'] as const,
  list: (p: ProjectPlace) => ['flows', 'list', p.clusterName, p.orgName, p.projectName] as const,
  bakes: (projectId: string) => ['flows', 'bakes', projectId] as const,
  bake: (bakeId: string) => ['flows', 'bake', bakeId] as const,
  tasks: (attemptId: string) => ['flows', 'tasks', attemptId] as const,
};

export const useFlows = (p: ProjectPlace) =>
  useQuery({
    queryKey: flowKeys.list(p),
    queryFn: ({ signal }) => flow<FlowProjectWire[]>('projects', { query: place(p), signal }),
    refetchOnWindowFocus: true,
  });

export function useDeleteFlow(p: ProjectPlace) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => flow<null>(`projects/${seg(id)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: flowKeys.list(p) }),
  });
}

/** Newest first; refreshed while any bake of the list is still going. */
export const useBakes = (projectId: string) =>
  useQuery({
    queryKey: flowKeys.bakes(projectId),
    queryFn: ({ signal }) =>
      flow<BakeWire[]>('bakes', {
        query: { project_id: projectId, fetch_last_attempt: 1, reverse: 'true' },
        signal,
      }),
    refetchInterval: (q) =>
      q.state.data?.some((b) => isLive(b.last_attempt?.result)) ? BAKE_POLL_MS : false,
    refetchOnWindowFocus: true,
  });

export const useBake = (bakeId: string) =>
  useQuery({
    queryKey: flowKeys.bake(bakeId),
    queryFn: ({ signal }) =>
      flow<BakeWire>(`bakes/${seg(bakeId)}`, { query: { fetch_last_attempt: 1 }, signal }),
    refetchInterval: (q) => (isLive(q.state.data?.last_attempt?.result) ? BAKE_POLL_MS : false),
  });

/**
 * The tasks of one attempt, polled while it runs (`live`), and after while a task is still pending
 * or running: a killed attempt is cancelled at once, its tasks only once the engine (or the
 * client's executor) has killed their jobs. The attempt's result is part of the key so that the
 * change to a final result fetches the tasks' statuses once more.
 */
export const useTasks = (
  attemptId: string | undefined,
  result: TaskStatus | undefined,
  live: boolean,
) =>
  useQuery({
    queryKey: [...flowKeys.tasks(attemptId ?? ''), result],
    queryFn: ({ signal }) =>
      flow<TaskWire[]>('tasks', { query: { attempt_id: attemptId }, signal }),
    enabled: !!attemptId,
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      live || q.state.data?.some((t) => isLive(taskStatus(t))) ? BAKE_POLL_MS : false,
  });

/** Killing replaces the last attempt with the result cancelled. */
export function useKillBake(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (a: AttemptWire) =>
      flow<AttemptWire>('attempts/replace', {
        method: 'PUT',
        body: {
          bake_id: a.bake_id,
          number: a.number,
          result: 'cancelled',
          configs_meta: a.configs_meta,
          executor_id: a.executor_id ?? null,
        },
      }),
    onSuccess: (_a, attempt) =>
      Promise.all([
        client.invalidateQueries({ queryKey: flowKeys.bakes(projectId) }),
        client.invalidateQueries({ queryKey: flowKeys.bake(attempt.bake_id) }),
      ]),
  });
}

export function useRestartBake(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (bakeId: string) =>
      flow<BakeWire>(`bakes/${seg(bakeId)}/restart`, { method: 'POST', body: {} }),
    onSuccess: (bake) =>
      Promise.all([
        client.invalidateQueries({ queryKey: flowKeys.bakes(projectId) }),
        client.invalidateQueries({ queryKey: flowKeys.bake(bake.id) }),
      ]),
  });
}

export type BatchSource = { content: string } | { file: string };

/** Orrery's own: the params a batch file declares, or a 400 whose message names the line. */
export const useInspectBatch = (p: ProjectPlace) =>
  useMutation({
    mutationFn: (source: BatchSource) =>
      flow<BatchInfo>('bakes/params', { method: 'POST', body: { ...source, ...place(p) } }),
  });

export function useStartBake(p: ProjectPlace) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BakeStartBody) =>
      flow<BakeWire>('bakes/start', { method: 'POST', body: { ...body, ...place(p) } }),
    onSuccess: () => client.invalidateQueries({ queryKey: flowKeys.all }),
  });
}
