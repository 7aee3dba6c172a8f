import type { Budget as BudgetWire, Budgets as BudgetsWire, Camel } from '@orrery/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, request } from '../../../api/client';
import { BALANCE_REFRESH_MS } from '../../../api/billing';

/** The budget calls of `/apis/billing/v1/orgs/{org}/budgets` (docs/billing.md, "Budgets"). */
export type Budget = Camel<BudgetWire>;

const enc = encodeURIComponent;
const path = (org: string, project?: string | null) =>
  `${API.billing}/orgs/${enc(org)}/budgets${project ? `/${enc(project)}` : ''}`;

export const budgetKeys = {
  all: (org: string) => ['billing', 'budgets', org] as const,
  alerts: (org: string) => ['billing', 'budget-alerts', org] as const,
};

/** Every budget of the organization with the month's spend (its managers only). */
export const useBudgets = (org: string) =>
  useQuery({
    queryKey: budgetKeys.all(org),
    queryFn: async ({ signal }) => (await request<BudgetsWire>(path(org), { signal })).items,
    refetchInterval: BALANCE_REFRESH_MS,
  });

/** The budgets crossed this month that the caller may see: the banner's. */
export const useBudgetAlerts = (org: string) =>
  useQuery({
    queryKey: budgetKeys.alerts(org),
    queryFn: async ({ signal }) =>
      (await request<BudgetsWire>(`${API.billing}/orgs/${enc(org)}/budget_alerts`, { signal }))
        .items,
    refetchInterval: BALANCE_REFRESH_MS,
  });

function useBudgetMutation<V>(org: string, fn: (v: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: budgetKeys.all(org) }),
        client.invalidateQueries({ queryKey: budgetKeys.alerts(org) }),
      ]),
  });
}

export const useSaveBudget = (org: string) =>
  useBudgetMutation(org, (v: { project: string | null; credits: number; thresholds: number[] }) =>
    request<BudgetWire>(path(org, v.project), {
      method: 'PUT',
      body: { credits: v.credits, thresholds: v.thresholds },
    }),
  );

export const useRemoveBudget = (org: string) =>
  useBudgetMutation(org, (project: string | null) =>
    request(path(org, project), { method: 'DELETE' }),
  );
