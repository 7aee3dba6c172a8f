import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { flowJobsTag } from '@orrery/contract';
import type { JobFilter } from '../../../api/jobs';
import { DEFAULT_STATUS_FILTER, parseStatusFilter, type StatusFilter } from '../rules';

/** The list's filters live in the query string so that a filtered list can be linked to. */
export const LIST_PARAMS = {
  status: 'status',
  search: 'search',
  tag: 'tag',
  /** Set by the Flows area's "View real-time jobs". */
  projectId: 'projectId',
  flowName: 'flowName',
} as const;

/**
 * neuro-flow tags every job of a flow `project:<flow>` (its project id with `_` made `-`, lower
 * case); the Flows area calls that project id the flow's name, so this tag selects the flow's
 * jobs. The one definition the server's engine and `flow_name` filter use too.
 */
export const flowTag = flowJobsTag;

export function useListParams() {
  const [params, setParams] = useSearchParams();
  const status = parseStatusFilter(params.get(LIST_PARAMS.status));
  const search = params.get(LIST_PARAMS.search) ?? '';
  const tagsKey = params.getAll(LIST_PARAMS.tag).join('\n');
  const flowName = params.get(LIST_PARAMS.flowName);
  const projectId = params.get(LIST_PARAMS.projectId);

  const update = useCallback(
    (change: (next: URLSearchParams) => void) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          change(next);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const tags = useMemo(() => (tagsKey ? tagsKey.split('\n') : []), [tagsKey]);
  const filter: JobFilter = useMemo(
    () => ({
      status: status === 'all' ? null : status,
      search,
      tags: flowName ? [...new Set([...tags, flowTag(flowName)])] : tags,
    }),
    [status, search, tags, flowName],
  );

  return {
    status,
    search,
    tags,
    flowName,
    projectId,
    filter,
    setStatus: (s: StatusFilter) =>
      update((p) =>
        s === DEFAULT_STATUS_FILTER ? p.delete(LIST_PARAMS.status) : p.set(LIST_PARAMS.status, s),
      ),
    setSearch: (text: string) =>
      update((p) => (text ? p.set(LIST_PARAMS.search, text) : p.delete(LIST_PARAMS.search))),
    addTag: (tag: string) =>
      update((p) => {
        if (!p.getAll(LIST_PARAMS.tag).includes(tag)) p.append(LIST_PARAMS.tag, tag);
      }),
    removeTag: (tag: string) => update((p) => p.delete(LIST_PARAMS.tag, tag)),
    clearFlow: () =>
      update((p) => {
        p.delete(LIST_PARAMS.flowName);
        p.delete(LIST_PARAMS.projectId);
      }),
  };
}
