import { ActionIcon, Anchor, Group, Text } from '@mantine/core';
import { DataTable } from '../../../ui/DataTable';
import { IconPlayerStop, IconRotateClockwise } from '@tabler/icons-react';
import type { BakeWire } from '@orrery/contract';
import { ContextLink } from '../../../app/context/ContextLink';
import { formatDate } from '../../../ui/dates';
import { withOutcome } from '../../../ui/notify';
import { useRestartBake } from '../api';
import { WhyNot } from '../../../ui/WhyNot';
import { bakeLabel, canRestart, graphLink, isLive, useFlowWrite } from '../rules';
import { StatusBadge, Tags } from '../StatusBadge';
import { BAKE_TEXTS, FLOW_TEXTS } from '../texts';

const C = BAKE_TEXTS.columns;

/**
 * Columns: Bake, ID, Executor ID, Status, Tags, Kill. Kill shows only while the last attempt
 * is pending or running; a failed or cancelled bake offers Restart from failed instead.
 */
export function BakesTable(props: {
  flow: { id: string; name: string };
  bakes: BakeWire[];
  onKill(bake: BakeWire): void;
}) {
  const write = useFlowWrite();
  const restart = useRestartBake(props.flow.id);
  return (
    <DataTable
      table={{ highlightOnHover: true, striped: true, verticalSpacing: 'sm' }}
      rows={props.bakes}
      rowKey={(b) => b.id}
      columns={[
        {
          header: C.bake,
          cell: (b) => (
            <Anchor
              component={ContextLink}
              to={graphLink(props.flow, b)}
              aria-label={BAKE_TEXTS.open(bakeLabel(b))}
            >
              {/* The ID is the next column: an unnamed bake is named by its batch here. */}
              {b.name || b.batch}
            </Anchor>
          ),
        },
        {
          header: C.id,
          cell: (b) => (
            <Text size="sm" ff="monospace">
              {b.id}
            </Text>
          ),
        },
        { header: C.executor, cell: (b) => b.last_attempt?.executor_id ?? '' },
        {
          header: C.status,
          cell: (b) =>
            b.last_attempt ? (
              <StatusBadge status={b.last_attempt.result} />
            ) : (
              <Text c="dimmed" size="sm">
                {BAKE_TEXTS.noAttempt}
              </Text>
            ),
        },
        { header: C.tags, cell: (b) => <Tags tags={b.tags} /> },
        { header: C.created, cell: (b) => formatDate(b.created_at) },
        {
          header: C.actions,
          cell: (b) => {
            const a = b.last_attempt;
            const label = bakeLabel(b);
            return (
              <Group gap={4} wrap="nowrap">
                {a && isLive(a.result) && (
                  <WhyNot can={write} tooltip={BAKE_TEXTS.kill}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={BAKE_TEXTS.killLabel(label)}
                      onClick={() => props.onKill(b)}
                    >
                      <IconPlayerStop size={16} />
                    </ActionIcon>
                  </WhyNot>
                )}
                {a && canRestart(a.result) && (
                  <WhyNot can={write} tooltip={BAKE_TEXTS.restart}>
                    <ActionIcon
                      variant="subtle"
                      loading={restart.isPending && restart.variables === b.id}
                      aria-label={BAKE_TEXTS.restartLabel(label)}
                      onClick={() =>
                        void withOutcome(
                          () => restart.mutateAsync(b.id),
                          BAKE_TEXTS.restarted,
                          FLOW_TEXTS.loadFailed,
                        )
                      }
                    >
                      <IconRotateClockwise size={16} />
                    </ActionIcon>
                  </WhyNot>
                )}
              </Group>
            );
          },
        },
      ]}
    />
  );
}
