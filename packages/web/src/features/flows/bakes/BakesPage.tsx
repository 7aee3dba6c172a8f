import { useState } from 'react';
import { Alert, Anchor, Breadcrumbs, Group, Loader, Stack, Title } from '@mantine/core';
import { IconListDetails } from '@tabler/icons-react';
import { useParams } from 'react-router';
import type { BakeWire, ProjectPlace } from '@orrery/contract';
import { ContextLink } from '../../../app/context/ContextLink';
import { EmptyState } from '../../../ui/EmptyState';
import { messageOf } from '../../../ui/errors';
import { useBakes } from '../api';
import { StartBakeButton } from '../start/StartBakeButton';
import { BAKE_TEXTS, FLOW_TEXTS } from '../texts';
import { BakesTable } from './BakesTable';
import { KillBakeDialog } from './KillBakeDialog';

/** The bakes of a flow (route params projectId and flowName), newest first. */
export default function BakesPage({ place }: { place: ProjectPlace }) {
  const { projectId = '', flowName = '' } = useParams();
  const flow = { id: projectId, name: flowName };
  const bakes = useBakes(projectId);
  const [killing, setKilling] = useState<BakeWire | null>(null);
  const list = bakes.data ?? [];

  let body;
  if (bakes.isPending) body = <Loader aria-label={BAKE_TEXTS.title(flowName)} />;
  else if (bakes.isError)
    body = <Alert color="red">{messageOf(bakes.error, FLOW_TEXTS.loadFailed)}</Alert>;
  else if (list.length === 0)
    body = (
      <EmptyState
        icon={<IconListDetails size={24} />}
        title={BAKE_TEXTS.empty}
        description={BAKE_TEXTS.emptyHint}
      />
    );
  else body = <BakesTable flow={flow} bakes={list} onKill={setKilling} />;

  return (
    <Stack>
      <Breadcrumbs>
        <Anchor component={ContextLink} to="/flows">
          {BAKE_TEXTS.back}
        </Anchor>
        <span>{flowName}</span>
      </Breadcrumbs>
      <Group justify="space-between">
        <Title order={2}>{BAKE_TEXTS.title(flowName)}</Title>
        <StartBakeButton place={place} flowName={flowName} />
      </Group>
      {body}
      <KillBakeDialog projectId={projectId} bake={killing} onClose={() => setKilling(null)} />
    </Stack>
  );
}
