import { EditAction } from '../../ui/RowActions';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { Button, Group, Loader, Modal, Select, Stack, TextInput, Title } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import { QUOTA_RESOURCES, StorageVolumeCredits, type QuotaResource } from '@orrery/contract';
import {
  useAdminOrgs,
  useClusterOrgs,
  useSaveClusterOrg,
  useSetVolumeCredits,
  useStorageVolumes,
  type ClusterOrg,
} from '../../api/admin';
import { DataTable } from '../../ui/DataTable';
import { DialogActions } from '../../ui/DialogActions';
import { fieldErrorOf, messageOf } from '../../ui/errors';
import { useLocalIssues } from '../../ui/issues';
import { notifyError, notifySuccess, withOutcome } from '../../ui/notify';
import { ADMIN_UI } from './texts';
import { DiskPrice } from './DiskPrice';
import { OrgQuotaFields, useOrgQuotaValues } from '../quotas/QuotaDialogs';
import { formatLimit } from '../quotas/QuotaParts';
import { CAMEL } from '../quotas/quotaForm';
import { QUOTAS_UI } from '../quotas/texts';

const O = ADMIN_UI.orgs;

/** A resource quota in the list: the nominal amount, and "+ borrowing" where one is set. */
function limitCell(q: ClusterOrg['quota'], r: QuotaResource) {
  const nominal = q[CAMEL[r]];
  const borrow = q.borrowingLimit[CAMEL[r]];
  if (nominal === null) return '∞';
  return borrow === null
    ? formatLimit(r, nominal)
    : `${formatLimit(r, nominal)} (+${formatLimit(r, borrow)})`;
}

/**
 * Organizations linked to the cluster with their jobs and resource quotas (docs/quotas.md), and
 * storage volume credits.
 */
export function ClusterOrgsTab({ cluster }: { cluster: string }) {
  const links = useClusterOrgs(cluster);
  const [editing, setEditing] = useState<ClusterOrg | 'new' | null>(null);
  return (
    <Stack>
      <Group justify="flex-end">
        <Button leftSection={<IconLink size={16} />} onClick={() => setEditing('new')}>
          {O.link}
        </Button>
      </Group>
      {links.isPending ? (
        <Loader aria-label={ADMIN_UI.clusterTabs.organizations} />
      ) : (
        <DataTable
          table={{ striped: true }}
          rows={links.data}
          rowKey={(l) => l.orgName}
          columns={[
            { header: O.name, cell: (l) => l.orgName },
            { header: O.jobs, cell: (l) => l.quota.totalRunningJobs ?? '∞' },
            ...QUOTA_RESOURCES.map((r) => ({
              header: QUOTAS_UI.resources[r],
              cell: (l: ClusterOrg) => limitCell(l.quota, r),
            })),
            { header: O.credits, cell: (l) => l.balance.credits ?? '∞' },
            {
              label: 'Actions',
              cell: (l) => <EditAction label={O.edit(l.orgName)} onClick={() => setEditing(l)} />,
            },
          ]}
        />
      )}
      <Modal
        opened={!!editing}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? O.link : editing ? O.edit(editing.orgName) : ''}
        size="lg"
        centered
      >
        {editing && (
          <QuotaForm
            key={editing === 'new' ? 'new' : editing.orgName}
            cluster={cluster}
            link={editing === 'new' ? null : editing}
            linked={(links.data ?? []).map((l) => l.orgName)}
            onClose={() => setEditing(null)}
          />
        )}
      </Modal>
      <Volumes cluster={cluster} />
      <DiskPrice cluster={cluster} />
    </Stack>
  );
}

function QuotaForm(props: {
  cluster: string;
  link: ClusterOrg | null;
  linked: string[];
  onClose(): void;
}) {
  const orgs = useAdminOrgs();
  const [org, setOrg] = useState<string | null>(props.link?.orgName ?? null);
  const save = useSaveClusterOrg(props.cluster);
  const q = useOrgQuotaValues(props.link?.quota);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = q.body();
    if (!org || !body) return;
    try {
      await save.mutateAsync({ orgName: org, ...body, isNew: !props.link });
      notifySuccess(props.link ? O.quotaUpdated(org) : O.linked(org, props.cluster));
      props.onClose();
    } catch (error) {
      notifyError(messageOf(error, ADMIN_UI.loadFailed));
    }
  };
  const choices = (orgs.data ?? []).map((o) => o.name).filter((n) => !props.linked.includes(n));
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {props.link ? (
          <TextInput label={O.name} value={props.link.orgName} readOnly />
        ) : (
          <Select
            label={O.name}
            data={choices}
            value={org}
            onChange={setOrg}
            searchable
            data-autofocus
          />
        )}
        <OrgQuotaFields q={q} serverError={save.error} />
      </Stack>
      <DialogActions
        cancelLabel={ADMIN_UI.cancel}
        onCancel={props.onClose}
        confirmLabel={ADMIN_UI.save}
        type="submit"
        disabled={!org}
        loading={save.isPending}
        mt="lg"
      />
    </form>
  );
}

/** Storage volume credits: one string per volume. */
function Volumes({ cluster }: { cluster: string }) {
  const volumes = useStorageVolumes(cluster);
  return (
    <Stack gap="xs">
      <Title order={4}>{O.volumes}</Title>
      {(volumes.data ?? []).map((v) => (
        <VolumeCredits
          key={v.name}
          cluster={cluster}
          volume={v.name}
          saved={v.creditsPerHourPerGb}
        />
      ))}
    </Stack>
  );
}

/** One volume's price, checked against the server's own rule before it is sent. */
function VolumeCredits(props: { cluster: string; volume: string; saved: string }) {
  const set = useSetVolumeCredits(props.cluster);
  const [value, setValue] = useState(props.saved);
  const check = useLocalIssues(StorageVolumeCredits, { credits_per_hour_per_gb: value });
  const save = () =>
    check.sendable() &&
    withOutcome(
      () => set.mutateAsync({ volume: props.volume, value }),
      ADMIN_UI.storageCreditsUpdated(props.volume),
      ADMIN_UI.loadFailed,
    );
  return (
    <Group align="flex-end">
      <TextInput
        label={`${props.volume}: ${O.volumeCredits}`}
        inputMode="decimal"
        value={value}
        onChange={(e) => setValue(e.currentTarget.value)}
        error={
          check.shown('credits_per_hour_per_gb') ??
          fieldErrorOf(set.error, 'credits_per_hour_per_gb')
        }
      />
      <Button variant="default" onClick={save} loading={set.isPending}>
        {ADMIN_UI.save}
      </Button>
    </Group>
  );
}
