import { useState } from 'react';
import { Alert, Group, Loader, Stack, Title } from '@mantine/core';
import { IconTopologyStar3 } from '@tabler/icons-react';
import type { FlowProjectWire, ProjectPlace } from '@orrery/contract';
import { EmptyState } from '../../../ui/EmptyState';
import { messageOf } from '../../../ui/errors';
import { useFlows } from '../api';
import { StartBakeButton } from '../start/StartBakeButton';
import { FLOW_TEXTS } from '../texts';
import { DeleteFlowDialog } from './DeleteFlowDialog';
import { FlowsTable } from './FlowsTable';

/** The Flows list of the current project. */
export default function FlowsListPage({ place }: { place: ProjectPlace }) {
  const flows = useFlows(place);
  const [deleting, setDeleting] = useState<FlowProjectWire | null>(null);
  const list = flows.data ?? [];

  let body;
  if (flows.isPending) body = <Loader aria-label={FLOW_TEXTS.title} />;
  else if (flows.isError)
    body = <Alert color="red">{messageOf(flows.error, FLOW_TEXTS.loadFailed)}</Alert>;
  else if (list.length === 0)
    body = (
      <EmptyState
        icon={<IconTopologyStar3 size={24} />}
        title={FLOW_TEXTS.empty}
        description={FLOW_TEXTS.emptyHint}
      />
    );
  else body = <FlowsTable flows={list} onDelete={setDeleting} />;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{FLOW_TEXTS.title}</Title>
        <StartBakeButton place={place} />
      </Group>
      {body}
      <DeleteFlowDialog place={place} flow={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
