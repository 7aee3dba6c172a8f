import { useState } from 'react';
import { Button, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { clusterUri, orgUri, QUOTA_RESOURCES, type ProjectPlace } from '@orrery/contract';
import { useCan } from '../../api/permissions';
import { useOrgQuota, useProjectQuota, type ProjectQuota } from '../../api/quotas';
import { EmptyState } from '../../ui/EmptyState';
import { EditAction } from '../../ui/RowActions';
import { messageOf } from '../../ui/errors';
import { OrgQuotaForm, ProjectQuotaForm } from './QuotaDialogs';
import { formatLimit, QuotaView } from './QuotaParts';
import { CAMEL } from './quotaForm';
import { QUOTAS_UI } from './texts';

const U = QUOTAS_UI;

/**
 * Who may change what, as the server decides (docs/quotas.md): the cluster's managers (system
 * administrators among them) the organization's quota; they and the organization's managers its
 * projects' quotas.
 */
function useQuotaRights(cluster: string, org: string) {
  const [onCluster, onOrg] = useCan([
    { uri: clusterUri(cluster), action: 'manage' },
    { uri: orgUri(org), action: 'manage' },
  ]);
  return {
    pending: onCluster.pending || onOrg.pending,
    editsOrg: onCluster.allowed,
    splits: onCluster.allowed || onOrg.allowed,
  };
}

/** "used / quota (+ borrowing)" for one resource of a project, in the split table. */
function share(p: ProjectQuota, r: (typeof QUOTA_RESOURCES)[number]) {
  const nominal = p[CAMEL[r]];
  const borrow = p.borrowingLimit[CAMEL[r]];
  const extra = nominal !== null && borrow !== null ? ` (+${formatLimit(r, borrow)})` : '';
  return `${formatLimit(r, p.used[CAMEL[r]])} / ${formatLimit(r, nominal)}${extra}`;
}

/** Organization settings: its quota on the current cluster, and its split among projects. */
export function OrgQuotaTab({ cluster, org }: { cluster: string; org: string }) {
  const quota = useOrgQuota(cluster, org);
  const rights = useQuotaRights(cluster, org);
  const [editing, setEditing] = useState<ProjectQuota | 'org' | null>(null);
  if (quota.isPending || rights.pending) return <Loader aria-label={U.tab} />;
  if (quota.isError) return <EmptyState title={messageOf(quota.error, U.loadFailed)} />;
  const q = quota.data;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={4}>{U.orgTitle(org, cluster)}</Title>
        {rights.editsOrg && <Button onClick={() => setEditing('org')}>{U.editOrg}</Button>}
      </Group>
      <QuotaView
        quota={q}
        used={q.used}
        jobs={{ quota: q.totalRunningJobs, running: q.used.totalRunningJobs }}
      />
      <Title order={4}>{U.projects}</Title>
      <Text size="sm" c="dimmed">
        {U.splitHint}
      </Text>
      {q.projects.length === 0 ? (
        <Text>{U.noProjects}</Text>
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{U.project}</Table.Th>
              {QUOTA_RESOURCES.map((r) => (
                <Table.Th key={r}>{U.resources[r]}</Table.Th>
              ))}
              {rights.splits && <Table.Th aria-label="Actions" />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {q.projects.map((p) => (
              <Table.Tr key={p.projectName}>
                <Table.Td>{p.projectName}</Table.Td>
                {QUOTA_RESOURCES.map((r) => (
                  <Table.Td key={r}>{share(p, r)}</Table.Td>
                ))}
                {rights.splits && (
                  <Table.Td>
                    <EditAction
                      label={U.editProject(p.projectName)}
                      onClick={() => setEditing(p)}
                    />
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal
        opened={!!editing}
        onClose={() => setEditing(null)}
        title={editing === 'org' ? U.editOrg : editing ? U.editProject(editing.projectName) : ''}
        size="lg"
        centered
      >
        {editing === 'org' && <OrgQuotaForm quota={q} onClose={() => setEditing(null)} />}
        {editing && editing !== 'org' && (
          <ProjectQuotaForm
            key={editing.projectName}
            place={{ clusterName: cluster, orgName: org, projectName: editing.projectName }}
            quota={editing}
            onClose={() => setEditing(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}

/** Project settings: the project's quota and what its running jobs hold now. */
export function ProjectQuotaTab({ place }: { place: ProjectPlace }) {
  const quota = useProjectQuota(place);
  const rights = useQuotaRights(place.clusterName, place.orgName);
  const [editing, setEditing] = useState(false);
  if (quota.isPending || rights.pending) return <Loader aria-label={U.projectTab} />;
  if (quota.isError) return <EmptyState title={messageOf(quota.error, U.loadFailed)} />;
  return (
    <Stack>
      <Group justify="flex-end">
        {rights.splits && (
          <Button onClick={() => setEditing(true)}>{U.editProject(place.projectName)}</Button>
        )}
      </Group>
      <QuotaView quota={quota.data} used={quota.data.used} />
      <Text size="sm" c="dimmed">
        {U.splitHint}
      </Text>
      <Modal
        opened={editing}
        onClose={() => setEditing(false)}
        title={U.editProject(place.projectName)}
        size="lg"
        centered
      >
        {editing && (
          <ProjectQuotaForm place={place} quota={quota.data} onClose={() => setEditing(false)} />
        )}
      </Modal>
    </Stack>
  );
}
