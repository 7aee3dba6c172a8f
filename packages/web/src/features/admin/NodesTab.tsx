import { EditAction } from '../../ui/RowActions';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { Alert, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { formatMemory, idleSizeIssue, NodePoolPatch } from '@orrery/contract';
import { usePatchNodePool, useNodePools, type NodePoolStatus } from '../../api/admin';
import { DataTable } from '../../ui/DataTable';
import { DialogActions } from '../../ui/DialogActions';
import { fieldErrorOf, messageOf } from '../../ui/errors';
import { useLocalIssues } from '../../ui/issues';
import { notifyError, notifySuccess } from '../../ui/notify';
import { ADMIN_UI } from './texts';

const N = ADMIN_UI.nodes;
const gpuTotal = (u: NodePoolStatus['used']) => u.nvidiaGpu + u.amdGpu + u.intelGpu;

/** The cluster's node pools with live capacity and what running jobs hold. */
export function NodesTab({ cluster }: { cluster: string }) {
  const pools = useNodePools(cluster);
  const [editing, setEditing] = useState<NodePoolStatus | null>(null);
  if (pools.isPending) return <Loader aria-label={ADMIN_UI.clusterTabs.nodes} />;
  if (pools.isError)
    return <Alert color="red">{messageOf(pools.error, ADMIN_UI.loadFailed)}</Alert>;
  return (
    <>
      <DataTable
        table={{ striped: true, verticalSpacing: 'sm' }}
        rows={pools.data}
        rowKey={(p) => p.name}
        columns={[
          {
            header: N.name,
            cell: (p) => (
              <>
                {p.name}
                {p.nodes?.map((n) => (
                  <Text key={n.name} size="xs" c={n.reason ? 'red' : 'dimmed'}>
                    {N.node(n.name, n.state, n.reason)}
                  </Text>
                ))}
              </>
            ),
          },
          { header: N.nodes, cell: (p) => `${p.minSize} / ${p.maxSize} / ${p.idleSize}` },
          { header: N.cpu, cell: (p) => `${p.used.cpu} / ${p.capacity.cpu}` },
          {
            header: N.memory,
            cell: (p) => `${formatMemory(p.used.memory)} / ${formatMemory(p.capacity.memory)}`,
          },
          {
            header: N.gpu,
            cell: (p) =>
              `${gpuTotal(p.used)} / ${gpuTotal(p.capacity)}${p.gpus.length ? ` (${p.gpus.map((g) => g.model ?? g.make).join(', ')})` : ''}`,
          },
          { header: N.preemptible, cell: (p) => (p.isPreemptible ? ADMIN_UI.yes : ADMIN_UI.no) },
          {
            label: 'Actions',
            cell: (p) => <EditAction label={N.edit(p.name)} onClick={() => setEditing(p)} />,
          },
        ]}
      />
      <Modal
        opened={!!editing}
        onClose={() => setEditing(null)}
        title={editing ? N.edit(editing.name) : ''}
        centered
      >
        {editing && (
          <PoolForm
            key={editing.name}
            cluster={cluster}
            pool={editing}
            onClose={() => setEditing(null)}
          />
        )}
      </Modal>
    </>
  );
}

/** Idle size and CPU watts as numbers (strings converted by the server); min and max read-only. */
function PoolForm({
  cluster,
  pool,
  onClose,
}: {
  cluster: string;
  pool: NodePoolStatus;
  onClose(): void;
}) {
  const [idle, setIdle] = useState(String(pool.idleSize));
  const [minW, setMinW] = useState(String(pool.cpuMinWatts));
  const [maxW, setMaxW] = useState(String(pool.cpuMaxWatts));
  const patch = usePatchNodePool(cluster);
  const values = { idle_size: idle, cpu_min_watts: minW, cpu_max_watts: maxW };
  const idleOver = NodePoolPatch.safeParse(values).success
    ? idleSizeIssue(Number(idle), pool)
    : null;
  const check = useLocalIssues(NodePoolPatch, values, idleOver ? { idle_size: idleOver } : {});
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check.sendable()) return;
    try {
      await patch.mutateAsync({
        name: pool.name,
        idleSize: idle,
        cpuMinWatts: minW,
        cpuMaxWatts: maxW,
      });
      notifySuccess(ADMIN_UI.poolUpdated(pool.name));
      onClose();
    } catch (error) {
      if (!(error as { fieldErrors?: unknown[] }).fieldErrors?.length)
        notifyError(messageOf(error, ADMIN_UI.loadFailed));
    }
  };
  const err = (path: string) => check.shown(path) ?? fieldErrorOf(patch.error, path);
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Group grow>
          <TextInput label={N.min} value={String(pool.minSize)} readOnly />
          <TextInput label={N.max} value={String(pool.maxSize)} readOnly />
        </Group>
        <TextInput
          label={N.idle}
          inputMode="numeric"
          value={idle}
          onChange={(e) => setIdle(e.currentTarget.value)}
          error={err('idle_size')}
          description={ADMIN_UI.idleNote(pool.maxSize - pool.minSize)}
        />
        <Group grow align="flex-start">
          <TextInput
            label={N.minWatts}
            inputMode="decimal"
            value={minW}
            onChange={(e) => setMinW(e.currentTarget.value)}
            error={err('cpu_min_watts')}
          />
          <TextInput
            label={N.maxWatts}
            inputMode="decimal"
            value={maxW}
            onChange={(e) => setMaxW(e.currentTarget.value)}
            error={err('cpu_max_watts')}
          />
        </Group>
      </Stack>
      <DialogActions
        cancelLabel={ADMIN_UI.cancel}
        onCancel={onClose}
        confirmLabel={ADMIN_UI.save}
        type="submit"
        loading={patch.isPending}
        mt="lg"
      />
    </form>
  );
}
