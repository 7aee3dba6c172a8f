import { Badge } from '@mantine/core';
import { perHour } from '../billing/cost/cost';
import { ClusterRole, isManagerRole, MemberRole } from '@orrery/contract';
import {
  useAddClusterUser,
  useAddProjectUser,
  useClusterUsers,
  useProjectUsers,
  useRemoveClusterUser,
  useRemoveProjectUser,
  useUpdateClusterUser,
  useUpdateProjectUser,
  type ProjectPlace,
} from '../../api/people';
import { usePlatformContext } from '../../app/context/platform-context';
import { useAccount } from '../../app/session/account';
import { DetailsTable } from '../../ui/DetailsTable';
import { EmptyState } from '../../ui/EmptyState';
import { MembersTab } from './MembersTab';
import { OrgUsersTab, useManagesOrg } from './OrgUsersTab';
import { SettingsTabs, type SettingsTab } from './SettingsTabs';
import { PEOPLE_UI } from './texts';

const G = PEOPLE_UI.general;
const T = PEOPLE_UI.tabs;

/**
 * Organization settings: managers see general and users, others only users (console-shell §2).
 * Reports come with the billing area; until then the pages show the variant without them.
 */
export function OrgSettingsPage() {
  const { org } = usePlatformContext();
  const manages = useManagesOrg();
  if (!org) return <EmptyState title={PEOPLE_UI.orgSettings} />;
  const users: SettingsTab = {
    value: 'users',
    label: T.users,
    render: () => <OrgUsersTab key={org.name} org={org.name} />,
  };
  const general: SettingsTab = {
    value: 'general',
    label: T.general,
    render: () => (
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
    ),
  };
  return (
    <SettingsTabs
      base="/org-settings"
      title={PEOPLE_UI.orgSettings}
      tabs={manages ? [general, users] : [users]}
    />
  );
}

/** Cluster settings: general only for cluster managers and the organization's (tenant) managers. */
export function ClusterSettingsPage() {
  const { cluster, names } = usePlatformContext();
  const { user } = useAccount();
  const managesOrg = useManagesOrg();
  if (!cluster || !names.org) return <EmptyState title={PEOPLE_UI.noCluster} />;
  const manages = !!user.systemRole || managesOrg || isManagerRole(cluster.role);
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
      tabs={manages ? [general, users] : [users]}
    />
  );
}

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

/** Project settings: general and users; project managers manage its members. */
export function ProjectSettingsPage() {
  const { project, names } = usePlatformContext();
  const { user } = useAccount();
  if (!project || !names.org || !names.cluster) return <EmptyState title={PEOPLE_UI.noProject} />;
  const place = { cluster: project.clusterName, org: project.orgName, project: project.name };
  const manages = !!user.systemRole || isManagerRole(project.role);
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
      value: 'users',
      label: T.users,
      render: () => <ProjectUsers key={place.project} place={place} canManage={manages} />,
    },
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
      org={place.org}
      where={`${place.project} project`}
      members={members}
      canManage={canManage}
      roles={MemberRole.options}
      defaultRole="writer"
      empty={PEOPLE_UI.noProjectUsers(place.project)}
      added={(n) => PEOPLE_UI.userAddedToProject(n, place.project)}
      save={(p) => {
        const body = { userName: p.userName, role: p.role as MemberRole };
        return p.isNew ? add.mutateAsync(body) : update.mutateAsync(body);
      }}
      remove={(n) => remove.mutateAsync(n)}
      removing={remove.isPending}
    />
  );
}
