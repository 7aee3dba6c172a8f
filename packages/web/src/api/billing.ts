import type { Camel, OrgUserWire, OrgWire } from '@orrery/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { API, request, requestText, type QueryValue } from './client';

/**
 * The billing calls: usage, payments, the ledger. The wire types are
 * the console's own copy of the shapes the server parts agreed on; balances are decimal strings.
 */
export type UsageCategory = 'jobs' | 'apps' | 'storage' | 'disks';
export type UsageGroup = 'category' | 'project' | 'day' | 'month';

export interface UsageItemWire {
  project_name?: string;
  category?: string;
  /** `YYYY-MM-DD` grouped by day, `YYYY-MM` by month. */
  date?: string;
  credits: string;
}
export interface UsageWire {
  clusters: { cluster_name: string; usage: UsageItemWire[]; total: string }[];
  total: string;
}

/** As the client hands it over: camelCase keys. */
export type Usage = Camel<UsageWire>;

export type PaymentsMode = 'stripe' | 'test' | 'off';

export interface LedgerEntryWire {
  id: number;
  kind: 'usage' | 'grant' | 'set' | 'purchase';
  credits: string;
  balance_after: string | null;
  user_name: string | null;
  reference: string | null;
  created_at: string;
}
export interface LedgerPageWire {
  items: LedgerEntryWire[];
  total: number;
}

export interface UsageFilters {
  org: string;
  cluster?: string | null;
  project?: string | null;
  groupBy: UsageGroup[];
  /** `YYYY-MM-DD`, both days included. */
  from: string;
  to: string;
}

const enc = encodeURIComponent;
const B = API.billing;

/** The next calendar day of a `YYYY-MM-DD` date, as the server's periods end before their end. */
export function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** Wire query of the usage route: days in UTC, the end exclusive. */
export function usageQuery(f: UsageFilters): Record<string, QueryValue> {
  return {
    org_name: f.org,
    cluster_name: f.cluster || undefined,
    project_name: f.project || undefined,
    group_by: f.groupBy,
    start_date: `${f.from}T00:00:00`,
    end_date: `${nextDay(f.to)}T00:00:00`,
  };
}

export const billingKeys = {
  usage: (f: UsageFilters) => ['billing', 'usage', f] as const,
  ledger: (org: string, page: number) => ['billing', 'ledger', org, page] as const,
  payments: ['billing', 'payments'] as const,
  /** The balances the top bar and the Credits tab show. */
  balance: (org: string) => ['billing', 'balance', org] as const,
  member: (org: string, user: string) => ['billing', 'member', org, user] as const,
};

export const useUsage = (f: UsageFilters) =>
  useQuery({
    queryKey: billingKeys.usage(f),
    queryFn: ({ signal }) => request<UsageWire>(`${B}/usage`, { query: usageQuery(f), signal }),
    // The previous answer stays on screen under the spinner while a new filter loads.
    placeholderData: keepPreviousData,
  });

/** The usage query as CSV (the route's `format=csv`), for the browser to save. */
export const fetchUsageCsv = (f: UsageFilters) =>
  requestText(`${B}/usage`, 'text/csv', { query: { ...usageQuery(f), format: 'csv' } });

export const usePaymentsMode = () =>
  useQuery({
    queryKey: billingKeys.payments,
    queryFn: ({ signal }) => request<{ mode: PaymentsMode }>(`${B}/payments`, { signal }),
    staleTime: Infinity,
  });

export interface BuyCredits {
  orgName: string;
  amountInCents: number;
  successUrl: string;
  cancelUrl: string;
}
export const useBuyCredits = () =>
  useMutation({
    mutationFn: (body: BuyCredits) =>
      request<{ checkout_url: string }>(`${B}/buy_credits`, { method: 'POST', body }),
  });

export const LEDGER_PAGE_SIZE = 50;
export const useLedger = (org: string, page: number) =>
  useQuery({
    queryKey: billingKeys.ledger(org, page),
    queryFn: ({ signal }) =>
      request<LedgerPageWire>(`${B}/orgs/${enc(org)}/ledger`, {
        query: { page, size: LEDGER_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** Balances move while work runs: the top bar reads them again at this pace. */
export const BALANCE_REFRESH_MS = 60_000;

export const useOrgBalance = (org: string) =>
  useQuery({
    queryKey: billingKeys.balance(org),
    queryFn: ({ signal }) => request<OrgWire>(`${API.core}/orgs/${enc(org)}`, { signal }),
    refetchInterval: BALANCE_REFRESH_MS,
  });

/** The signed-in user's own row in the organization: their credit limit there. */
export const useMemberBalance = (org: string, user: string) =>
  useQuery({
    queryKey: billingKeys.member(org, user),
    queryFn: ({ signal }) =>
      request<OrgUserWire>(`${API.admin}/orgs/${enc(org)}/users/${enc(user)}`, { signal }),
    refetchInterval: BALANCE_REFRESH_MS,
  });
