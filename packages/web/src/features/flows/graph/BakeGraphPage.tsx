import { useMemo, useState } from 'react';
import {
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Group,
  Loader,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconPlayerStop, IconRotateClockwise, IconTopologyStar3 } from '@tabler/icons-react';
import { useParams } from 'react-router';
import type { TaskStatus, TaskWire } from '@orrery/contract';
import { ContextLink } from '../../../app/context/ContextLink';
import { EmptyState } from '../../../ui/EmptyState';
import { messageOf } from '../../../ui/errors';
import { withOutcome } from '../../../ui/notify';
import { useBake, useRestartBake, useTasks } from '../api';
import { KillBakeDialog } from '../bakes/KillBakeDialog';
import { WhyNot } from '../../../ui/WhyNot';
import { bakeLabel, bakesLink, canRestart, isLive, taskStatus, useFlowWrite } from '../rules';
import { StatusBadge } from '../StatusBadge';
import { BAKE_TEXTS, FLOW_TEXTS, GRAPH_TEXTS } from '../texts';
import { BakeGraph } from './BakeGraph';
import { TaskDrawer } from './TaskDrawer';
import { useGraphLayout } from './useGraphLayout';

/**
 * A bake's task graph (params projectId, flowName, bakeId and an optional bakeName),
 * live while its last attempt is pending or running; a click on a task opens its details.
 */
export default function BakeGraphPage() {
  const { projectId = '', flowName = '', bakeId = '', bakeName } = useParams();
  const flow = { id: projectId, name: flowName };
  const bake = useBake(bakeId);
  const attempt = bake.data?.last_attempt ?? null;
  const live = isLive(attempt?.result);
  const tasks = useTasks(attempt?.id, attempt?.result, live);
  const layout = useGraphLayout(bake.data?.graphs);
  const [selected, setSelected] = useState<string | null>(null);
  const [killing, setKilling] = useState(false);
  const write = useFlowWrite();
  const restart = useRestartBake(projectId);

  const byId = useMemo(
    () => new Map<string, TaskWire>((tasks.data ?? []).map((t) => [t.yaml_id, t])),
    [tasks.data],
  );
  const statuses = useMemo(
    () => new Map<string, TaskStatus>([...byId].map(([id, t]) => [id, taskStatus(t)])),
    [byId],
  );
  const title = bake.data ? bakeLabel(bake.data) : (bakeName ?? bakeId);

  let body;
  if (bake.isPending) body = <Loader aria-label={GRAPH_TEXTS.title(title)} />;
  else if (bake.isError)
    body = <Alert color="red">{messageOf(bake.error, GRAPH_TEXTS.noSuchBake)}</Alert>;
  else if (Object.values(bake.data.graphs).every((g) => Object.keys(g).length === 0))
    body = (
      <EmptyState
        icon={<IconTopologyStar3 size={24} />}
        title={GRAPH_TEXTS.empty}
        description={GRAPH_TEXTS.emptyHint}
      />
    );
  // The graph waits for the tasks: drawn before them, a large bake would be drawn twice (all
  // waiting, then in their statuses).
  else if (!layout || (attempt && tasks.isPending))
    body = <Loader aria-label={GRAPH_TEXTS.title(title)} />;
  else
    body = (
      <>
        {tasks.isError && (
          <Alert color="red">{messageOf(tasks.error, FLOW_TEXTS.loadFailed)}</Alert>
        )}
        <BakeGraph layout={layout} statuses={statuses} selected={selected} onSelect={setSelected} />
      </>
    );

  return (
    <Stack>
      <Breadcrumbs>
        <Anchor component={ContextLink} to="/flows">
          {BAKE_TEXTS.back}
        </Anchor>
        <Anchor component={ContextLink} to={bakesLink(flow)}>
          {flowName}
        </Anchor>
        <span>{title}</span>
      </Breadcrumbs>
      <Group justify="space-between">
        <Group>
          <Title order={2}>{GRAPH_TEXTS.title(title)}</Title>
          {attempt && <StatusBadge status={attempt.result} />}
          {attempt && <Text c="dimmed">{GRAPH_TEXTS.attempt(attempt.number)}</Text>}
        </Group>
        <Group>
          {attempt && live && (
            <WhyNot can={write}>
              <Button
                color="red"
                variant="light"
                leftSection={<IconPlayerStop size={16} />}
                onClick={() => setKilling(true)}
              >
                {BAKE_TEXTS.kill}
              </Button>
            </WhyNot>
          )}
          {attempt && canRestart(attempt.result) && (
            <WhyNot can={write}>
              <Button
                variant="light"
                leftSection={<IconRotateClockwise size={16} />}
                loading={restart.isPending}
                onClick={() =>
                  void withOutcome(
                    () => restart.mutateAsync(bakeId),
                    BAKE_TEXTS.restarted,
                    FLOW_TEXTS.loadFailed,
                  )
                }
              >
                {BAKE_TEXTS.restart}
              </Button>
            </WhyNot>
          )}
        </Group>
      </Group>
      {body}
      <TaskDrawer
        id={selected}
        task={selected ? (byId.get(selected) ?? null) : null}
        onClose={() => setSelected(null)}
      />
      <KillBakeDialog
        projectId={projectId}
        bake={killing ? (bake.data ?? null) : null}
        onClose={() => setKilling(false)}
      />
    </Stack>
  );
}
