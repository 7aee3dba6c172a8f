import { useMemo, useState } from 'react';
import { Loader, Stack, Tabs, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Navigate, useNavigate, useParams } from 'react-router';
import type { UsageFilters } from '../../api/billing';
import { useContextLink, usePlatformContext } from '../../app/context/platform-context';
import { useAccount } from '../../app/session/account';
import { EmptyState } from '../../ui/EmptyState';
import { useOrgManage } from '../people/manages';
import { CreditsTab } from './credits/CreditsTab';
import { BillingFilters } from './filters/BillingFilters';
import { defaultFilters, todayUtc, wireGroups, type BillingFilterState } from './filters/filters';
import './styles';
import { BILLING_TEXTS } from './texts';
import { UsageTab } from './usage/UsageTab';

const TABS = ['usage', 'credits'] as const;
type Tab = (typeof TABS)[number];

/**
 * `/org-billing`: the organization's usage and credits, for its managers
 * only; the filters are shared by both tabs, the cluster filter off on the first.
 */
export default function BillingPage() {
  const { org } = usePlatformContext();
  const managing = useOrgManage();
  if (!org) return <EmptyState title={BILLING_TEXTS.noOrg} />;
  if (managing.pending) return <Loader aria-label={BILLING_TEXTS.title} />;
  if (!managing.allowed)
    return (
      <EmptyState
        icon={<IconLock />}
        title={BILLING_TEXTS.refused}
        description={BILLING_TEXTS.refusedHint}
      />
    );
  return <Billing key={org.name} org={org.name} />;
}

function Billing({ org }: { org: string }) {
  const { tab } = useParams();
  const navigate = useNavigate();
  const link = useContextLink();
  const account = useAccount();
  const { clusters } = usePlatformContext();
  const today = useMemo(() => todayUtc(), []);
  const [filters, setFilters] = useState<BillingFilterState>(() => defaultFilters(today));
  const projects = useMemo(
    () => [...new Set(account.projects.filter((p) => p.orgName === org).map((p) => p.name))].sort(),
    [account.projects, org],
  );
  if (!TABS.includes(tab as Tab)) return <Navigate to={link('/org-billing/usage')} replace />;
  const onUsage = tab === 'usage';
  const query: UsageFilters = {
    org,
    cluster: onUsage ? null : filters.cluster,
    project: filters.project,
    from: filters.from,
    to: filters.to,
    groupBy: onUsage ? wireGroups(filters.groups) : [],
  };
  return (
    <Stack>
      <Title order={2}>{BILLING_TEXTS.title}</Title>
      <Tabs value={tab} onChange={(v) => v && navigate(link(`/org-billing/${v}`))}>
        <Tabs.List>
          {TABS.map((t) => (
            <Tabs.Tab key={t} value={t}>
              {BILLING_TEXTS.tabs[t]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <BillingFilters
        value={filters}
        onChange={setFilters}
        clusters={clusters.map((c) => c.name)}
        projects={projects}
        today={today}
        clusterDisabled={onUsage}
        withGroups={onUsage}
      />
      {onUsage ? (
        <UsageTab filters={query} groups={filters.groups} />
      ) : (
        <CreditsTab filters={query} projects={projects} />
      )}
    </Stack>
  );
}
