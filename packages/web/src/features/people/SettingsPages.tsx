import { Badge, Loader, Stack } from '@mantine/core';
import { perHour } from '../billing/cost/cost';
import {
  clusterUri,
  ClusterRole,
  MemberRole,
  orgUri,
  projectUri,
  type ProjectPlace,
} from '@orrery/contract';
import { memberUri, useCan } from '../../api/permissions';
import {
  useAddClusterUser,
  useAddProjectUser,
  useClusterUsers,
  useProjectUsers,
  useRemoveClusterUser,
  useRemoveProjectUser,
  useUpdateClusterUser,
  useUpdateProjectUser,
} from '../../api/people';
import { usePlatformContext } from '../../app/context/platform-context';
import { DetailsTable } from '../../ui/DetailsTable';
import { EmptyState } from '../../ui/EmptyState';
import { ModelSettingCard } from '../assistant/model-settings/ModelSettingCard';
import { ReportsTab } from '../billing/reports/ReportsTab';
import type { ReportScope } from '../billing/reports/api';
import { REPORTS_TEXTS } from '../billing/reports/texts';
import { MembersTab } from './MembersTab';
import { OrgUsersTab } from './OrgUsersTab';
import { useManagesOrg, useOrgManage, useProjectManage } from './manages';
import { SettingsTabs, type SettingsTab } from './SettingsTabs';
import { PEOPLE_UI } from './texts';
import { TokensTab } from '../tokens/TokensTab';
import { OrgQuotaTab, ProjectQuotaTab } from '../quotas/QuotaTabs';
import { QUOTAS_UI } from '../quotas/texts';
import { TOKENS_UI } from '../tokens/texts';

const G = PEOPLE_UI.general;
const T = PEOPLE_UI.tabs;

/** Organization settings: managers see general, users, quotas and reports; others users and quotas. */
export function OrgSettingsPage() {
  const { org, names } = usePlatformContext();
  const managing = useOrgManage();
  if (!org) return <EmptyState title={PEOPLE_UI.orgSettings} />;
  // Which tabs there are depends on the answer: none is chosen before it comes.
  if (managing.pending) return <Loader aria-label={PEOPLE_UI.orgSettings} />;
  const manages = managing.allowed;
  const users: SettingsTab = {
    value: 'users',
    label: T.users,
    render: () => <OrgUsersTab key={org.name} org={org.name} />,
  };
  const general: SettingsTab = {
    value: 'general',
    label: T.general,
    render: () => (
      <Stack>
        <DetailsTable
          rows={[
            [G.name, org.name],
            [
              G.yourRole,
              <Badge key="r" variant="light">
                {org.role}
              </Badge>,
            ],
            [G.credits, org.balance.credits ?? PEOPLE_UI.unlimited],
          ]}
        />
        <ModelSettingCard key={org.name} org={org.name} />
      </Stack>
    ),
  };
  // The organization's quota on the current cluster: everyone reads it (and the projects they
  // see); who may change it is the tab's to ask.
  const cluster = names.cluster;
  const quotas: SettingsTab = {
    value: 'quotas',
    label: QUOTAS_UI.tab,
    render: () =>
      cluster ? (
        <OrgQuotaTab key={`${cluster}/${org.name}`} cluster={cluster} org={org.name} />
      ) : (
        <EmptyState title={QUOTAS_UI.noCluster} />
      ),
  };
  return (
    <SettingsTabs
      base="/org-settings"
      title={PEOPLE_UI.orgSettings}
      tabs={manages ? [general, users, quotas, reportsTab({ org: org.name })] : [users, quotas]}
    />
  );
}

/** The reports of a scope, remounted when the scope changes so its period starts afresh. */
const reportsTab = (scope: ReportScope, withPools = false): SettingsTab => ({
  value: 'reports',
  label: T.reports,
  render: () => (
    <ReportsTab key={Object.values(scope).join('/')} scope={scope} withPools={withPools} />
  ),
});

/**
 * Cluster settings: general only for cluster managers and the organization's (tenant) managers;
 * others see users and reports. The reports are the organization's usage on
 * the cluster, which only those managers may read: the others' tab says so.
 */
export function ClusterSettingsPage() {
  const { cluster, names } = usePlatformContext();
  // As the server decides who manages the cluster's people: manage on the cluster or on the
  // organization (people/service.ts), the permission engine's answer, never role names.
  const [managingOrg, managingCluster] = useCan([
    names.org ? { uri: orgUri(names.org), action: 'manage' } : null,
    cluster ? { uri: clusterUri(cluster.name), action: 'manage' } : null,
  ]);
  if (!cluster || !names.org) return <EmptyState title={PEOPLE_UI.noCluster} />;
  if (managingOrg.pending || managingCluster.pending)
    return <Loader aria-label={PEOPLE_UI.clusterSettings} />;
  // Node pools are the cluster's own: its managers (system administrators among them) see them.
  const managesCluster = managingCluster.allowed;
  const manages = managingOrg.allowed || managesCluster;
  const org = names.org;
  const general: SettingsTab = {
    value: 'general',
    label: T.general,
    render: () => (
      <DetailsTable
        rows={[
          [G.name, cluster.name],
          [G.location, cluster.details?.location ?? '—'],
          [G.timezone, cluster.details?.timezone ?? '—'],
          [
            G.presets,
            (cluster.details?.resourcePresets ?? [])
              .map((p) => `${p.name} (${perHour(p.creditsPerHour)})`)
              .join(', '),
          ],
        ]}
      />
    ),
  };
  const users: SettingsTab = {
    value: 'users',
    label: T.users,
    render: () => (
      <ClusterUsers
        key={`${cluster.name}/${org}`}
        cluster={cluster.name}
        org={org}
        canManage={manages}
      />
    ),
  };
  return (
    <SettingsTabs
      base="/cluster-settings"
      title={PEOPLE_UI.clusterSettings}
      tabs={
        manages
          ? [general, users, reportsTab({ org, cluster: cluster.name }, managesCluster)]
          : [users, refusedReports]
      }
    />
  );
}

const refusedReports: SettingsTab = {
  value: 'reports',
  label: T.reports,
  render: () => (
    <EmptyState
      title={REPORTS_TEXTS.clusterRefused}
      description={REPORTS_TEXTS.clusterRefusedHint}
    />
  ),
};

function ClusterUsers({
  cluster,
  org,
  canManage,
}: {
  cluster: string;
  org: string;
  canManage: boolean;
}) {
  const members = useClusterUsers(cluster, org);
  const add = useAddClusterUser(cluster, org);
  const update = useUpdateClusterUser(cluster, org);
  const remove = useRemoveClusterUser(cluster, org);
  return (
    <MembersTab
      org={org}
      where={`${cluster} cluster`}
      members={members}
      canManage={canManage}
      roles={ClusterRole.options}
      defaultRole="user"
      inheritedRole="user"
      empty={PEOPLE_UI.noClusterUsers(cluster)}
      added={(n) => PEOPLE_UI.userAddedToCluster(n, cluster)}
      save={(p) => {
        const body = { userName: p.userName, role: p.role as ClusterRole };
        return p.isNew ? add.mutateAsync(body) : update.mutateAsync(body);
      }}
      remove={(n) => remove.mutateAsync(n)}
      removing={remove.isPending}
    />
  );
}

/**
 * Project settings: general, reports and users; a project whose reports the user may not read
 * (only its managers and the organization's may) shows general and users.
 */
export function ProjectSettingsPage() {
  const { project, names } = usePlatformContext();
  const managesOrg = useManagesOrg();
  const managing = useProjectManage();
  if (!project || !names.org || !names.cluster) return <EmptyState title={PEOPLE_UI.noProject} />;
  if (managing.pending) return <Loader aria-label={PEOPLE_UI.projectSettings} />;
  const place = {
    clusterName: project.clusterName,
    orgName: project.orgName,
    projectName: project.name,
  };
  const manages = managing.allowed;
  const reports =
    manages || managesOrg
      ? [reportsTab({ cluster: place.clusterName, org: place.orgName, project: place.projectName })]
      : [];
  const tabs: SettingsTab[] = [
    {
      value: 'general',
      label: T.general,
      render: () => (
        <DetailsTable
          rows={[
            [G.name, project.name],
            [G.yourRole, project.role ?? '—'],
          ]}
        />
      ),
    },
    {
      value: 'quota',
      label: QUOTAS_UI.projectTab,
      render: () => <ProjectQuotaTab key={place.projectName} place={place} />,
    },
    ...reports,
    {
      value: 'users',
      label: T.users,
      render: () => <ProjectUsers key={place.projectName} place={place} canManage={manages} />,
    },
    // Tokens are a project manager's: nobody else is offered the tab.
    ...(manages
      ? [
          {
            value: 'tokens',
            label: TOKENS_UI.tab,
            render: () => <TokensTab key={place.projectName} place={place} />,
          },
        ]
      : []),
  ];
  return <SettingsTabs base="/project-settings" title={PEOPLE_UI.projectSettings} tabs={tabs} />;
}

function ProjectUsers({ place, canManage }: { place: ProjectPlace; canManage: boolean }) {
  const members = useProjectUsers(place);
  const add = useAddProjectUser(place);
  const update = useUpdateProjectUser(place);
  const remove = useRemoveProjectUser(place);
  return (
    <MembersTab
      org={place.orgName}
      where={`${place.projectName} project`}
      members={members}
      canManage={canManage}
      uriOf={(name) =>
        memberUri(projectUri(place.clusterName, place.orgName, place.projectName), name)
      }
      roles={MemberRole.options}
      defaultRole="writer"
      empty={PEOPLE_UI.noProjectUsers(place.projectName)}
      added={(n) => PEOPLE_UI.userAddedToProject(n, place.projectName)}
      save={(p) => {
        const body = { userName: p.userName, role: p.role as MemberRole };
        return p.isNew ? add.mutateAsync(body) : update.mutateAsync(body);
      }}
      remove={(n) => remove.mutateAsync(n)}
      removing={remove.isPending}
    />
  );
}
