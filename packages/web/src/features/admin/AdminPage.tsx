import { useState } from 'react';
import { ActionIcon, Anchor, Loader, Stack, Tabs, TextInput, Title } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { SEARCH_MAX, SEARCH_MIN, matchesPrefix } from '@orrery/contract';
import { Navigate, Route, Routes, useNavigate, useParams } from 'react-router';
import { useAdminClusters, useAdminOrgs, type AdminOrg } from '../../api/admin';
import { useContextLink } from '../../app/context/platform-context';
import { ContextLink } from '../../app/context/ContextLink';
import { useAccount } from '../../app/session/account';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { ReportsTab } from '../billing/reports/ReportsTab';
import { AdminUsersTab } from './AdminUsersTab';
import { OrgBalanceDialog } from './OrgBalanceDialog';
import { ClusterOrgsTab } from './ClusterOrgsTab';
import { HostTab } from './HostTab';
import { NodesTab } from './NodesTab';
import { QueueTab } from './QueueTab';
import { ResourcesTab } from './ResourcesTab';
import { ADMIN_UI } from './texts';

const AREA_TABS = ['users', 'clusters', 'organizations', 'host'] as const;
const CLUSTER_TABS = ['nodes', 'resources', 'reports', 'organizations', 'queue'] as const;

/**
 * /admin: system role only, anyone else goes home. Tabs users, clusters,
 * organizations and host (what this installation cannot do); a cluster at clusters/{name} with
 * nodes (default), resources, reports, organizations and queue (who waits and why, by
 * organization and project). Any other path leads back to the users tab.
 */
export default function AdminPage() {
  const { user } = useAccount();
  if (!user.systemRole) return <Navigate to="/" replace />;
  return (
    <Routes>
      <Route path="clusters/:clusterName/:tab?" element={<ClusterDetail />} />
      <Route path=":tab" element={<AdminTabs />} />
      <Route path="*" element={<ToTab path="/admin/users" />} />
    </Routes>
  );
}

function ToTab({ path }: { path: string }) {
  const link = useContextLink();
  return <Navigate to={link(path)} replace />;
}

function TabBar<T extends string>({
  tabs,
  value,
  labels,
  base,
}: {
  tabs: readonly T[];
  value: T;
  labels: Record<T, string>;
  base: string;
}) {
  const navigate = useNavigate();
  const link = useContextLink();
  return (
    <Tabs value={value} onChange={(v) => v && navigate(link(`${base}/${v}`))}>
      <Tabs.List>
        {tabs.map((t) => (
          <Tabs.Tab key={t} value={t}>
            {labels[t]}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}

function AdminTabs() {
  const { tab } = useParams();
  if (!AREA_TABS.includes(tab as (typeof AREA_TABS)[number])) return <ToTab path="/admin/users" />;
  const current = tab as (typeof AREA_TABS)[number];
  return (
    <Stack>
      <Title order={2}>{ADMIN_UI.title}</Title>
      <TabBar tabs={AREA_TABS} value={current} labels={ADMIN_UI.tabs} base="/admin" />
      {current === 'users' && <AdminUsersTab />}
      {current === 'clusters' && <ClustersTab />}
      {current === 'organizations' && <OrgsTab />}
      {current === 'host' && <HostTab />}
    </Stack>
  );
}

function ClustersTab() {
  const clusters = useAdminClusters();
  const C = ADMIN_UI.clusters;
  if (clusters.isPending) return <Loader aria-label={ADMIN_UI.tabs.clusters} />;
  return (
    <DataTable
      table={{ striped: true }}
      rows={clusters.data}
      rowKey={(c) => c.name}
      columns={[
        {
          header: C.name,
          cell: (c) => (
            <Anchor
              component={ContextLink}
              to={`/admin/clusters/${encodeURIComponent(c.name)}/nodes`}
              aria-label={C.open(c.name)}
            >
              {c.name}
            </Anchor>
          ),
        },
        { header: C.location, cell: (c) => c.location ?? '—' },
        { header: C.orgs, cell: (c) => c.orgsCount },
      ]}
    />
  );
}

/** Organizations: a search of 2+ characters, at most 25 shown. */
function OrgsTab() {
  const orgs = useAdminOrgs();
  const [q, setQ] = useState('');
  const [crediting, setCrediting] = useState<AdminOrg | null>(null);
  const O = ADMIN_UI.orgs;
  const ready = q.trim().length >= SEARCH_MIN;
  const found = ready
    ? (orgs.data ?? []).filter((o) => matchesPrefix(q, o.name)).slice(0, SEARCH_MAX)
    : [];
  return (
    <Stack>
      <TextInput
        label={O.search}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        description={ready ? undefined : ADMIN_UI.typeMore}
      />
      {orgs.isPending ? (
        <Loader aria-label={ADMIN_UI.tabs.organizations} />
      ) : ready && found.length === 0 ? (
        <EmptyState title={ADMIN_UI.noOrganizations} />
      ) : (
        found.length > 0 && (
          <DataTable
            table={{ striped: true }}
            rows={found}
            rowKey={(o) => o.name}
            columns={[
              { header: O.name, cell: (o) => o.name },
              { header: O.credits, cell: (o) => o.balance.credits ?? '∞' },
              { header: O.users, cell: (o) => o.usersCount },
              {
                label: 'Actions',
                cell: (o) => (
                  <ActionIcon
                    variant="subtle"
                    aria-label={O.editCredits(o.name)}
                    onClick={() => setCrediting(o)}
                  >
                    <IconCoins size={16} />
                  </ActionIcon>
                ),
              },
            ]}
          />
        )
      )}
      <OrgBalanceDialog org={crediting} onClose={() => setCrediting(null)} />
    </Stack>
  );
}

function ClusterDetail() {
  const { clusterName = '', tab } = useParams();
  const base = `/admin/clusters/${encodeURIComponent(clusterName)}`;
  if (!tab || !CLUSTER_TABS.includes(tab as (typeof CLUSTER_TABS)[number]))
    return <ToTab path={`${base}/nodes`} />;
  const current = tab as (typeof CLUSTER_TABS)[number];
  return (
    <Stack>
      <Title order={2}>{`${ADMIN_UI.title}: ${clusterName}`}</Title>
      <TabBar tabs={CLUSTER_TABS} value={current} labels={ADMIN_UI.clusterTabs} base={base} />
      {current === 'nodes' && <NodesTab cluster={clusterName} />}
      {current === 'resources' && <ResourcesTab cluster={clusterName} />}
      {current === 'reports' && (
        <ReportsTab key={clusterName} scope={{ cluster: clusterName }} withPools />
      )}
      {current === 'organizations' && <ClusterOrgsTab cluster={clusterName} />}
      {current === 'queue' && <QueueTab cluster={clusterName} />}
    </Stack>
  );
}
