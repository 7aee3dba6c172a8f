import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { API, request, type QueryValue } from '../../../api/client';
import { nextDay } from '../../../api/billing';

/**
 * Whose usage a report reads: an organization (optionally one cluster or project of it), or a
 * whole cluster across its organizations (the admin area), as the usage route scopes it.
 */
export type ReportScope =
  | { org: string; cluster?: string; project?: string }
  | { org?: undefined; cluster: string; project?: undefined };

/** `YYYY-MM-DD`, both days included. */
export interface ReportPeriod {
  from: string;
  to: string;
}

export type ReportGroup = 'category' | 'project' | 'user' | 'day';

export interface ReportItemWire {
  project_name?: string;
  user_name?: string | null;
  category?: string;
  date?: string;
  credits: string;
}
export interface ReportUsageWire {
  clusters: { cluster_name: string; usage: ReportItemWire[]; total: string }[];
  total: string;
}
export interface TopResourceWire {
  category: string;
  project_name: string;
  resource_id: string;
  /** A job's name; null for a job without one and for other resources (their id is a name). */
  resource_name: string | null;
  user_name: string | null;
  credits: string;
}

/** The query of either route for a scope and period (UTC days, the end exclusive). */
export function reportQuery(scope: ReportScope, period: ReportPeriod): Record<string, QueryValue> {
  return {
    org_name: scope.org,
    cluster_name: scope.cluster,
    project_name: scope.project,
    start_date: `${period.from}T00:00:00`,
    end_date: `${nextDay(period.to)}T00:00:00`,
  };
}

const keyOf = (scope: ReportScope, period: ReportPeriod) =>
  [
    scope.org ?? null,
    scope.cluster ?? null,
    scope.project ?? null,
    period.from,
    period.to,
  ] as const;

export const useReportUsage = (
  scope: ReportScope,
  period: ReportPeriod,
  groups: ReportGroup[],
  enabled = true,
) =>
  useQuery({
    enabled,
    queryKey: ['billing', 'report', 'usage', ...keyOf(scope, period), groups],
    queryFn: ({ signal }) =>
      request<ReportUsageWire>(`${API.billing}/usage`, {
        query: { ...reportQuery(scope, period), group_by: groups },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** How many of the most expensive resources a report lists. */
export const TOP_LIMIT = 10;

export const useTopResources = (scope: ReportScope, period: ReportPeriod) =>
  useQuery({
    queryKey: ['billing', 'report', 'top', ...keyOf(scope, period)],
    queryFn: ({ signal }) =>
      request<TopResourceWire[]>(`${API.billing}/top`, {
        query: { ...reportQuery(scope, period), limit: TOP_LIMIT },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export interface PoolSampleWire {
  at: string;
  cpu_used: number;
  cpu_total: number;
  memory_used: number;
  memory_total: number;
  gpu_used: number;
  gpu_total: number;
}
export interface PoolUtilisationWire {
  step: number;
  pools: { pool_name: string; samples: PoolSampleWire[] }[];
}

/** A cluster's node pools over the period (its managers and system administrators). */
export const usePoolUtilisation = (cluster: string, period: ReportPeriod) =>
  useQuery({
    queryKey: ['billing', 'report', 'pools', cluster, period.from, period.to],
    queryFn: ({ signal }) =>
      request<PoolUtilisationWire>(`${API.billing}/pools`, {
        query: reportQuery({ cluster }, period),
        signal,
      }),
    placeholderData: keepPreviousData,
  });
