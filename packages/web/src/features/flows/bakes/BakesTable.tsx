import { ActionIcon, Anchor, Group, Table, Text } from '@mantine/core';
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
    <Table highlightOnHover striped verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{C.bake}</Table.Th>
          <Table.Th>{C.id}</Table.Th>
          <Table.Th>{C.executor}</Table.Th>
          <Table.Th>{C.status}</Table.Th>
          <Table.Th>{C.tags}</Table.Th>
          <Table.Th>{C.created}</Table.Th>
          <Table.Th>{C.actions}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.bakes.map((b) => {
          const a = b.last_attempt;
          const label = bakeLabel(b);
          return (
            <Table.Tr key={b.id}>
              <Table.Td>
                <Anchor
                  component={ContextLink}
                  to={graphLink(props.flow, b)}
                  aria-label={BAKE_TEXTS.open(label)}
                >
                  {label}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {b.id}
                </Text>
              </Table.Td>
              <Table.Td>{a?.executor_id ?? ''}</Table.Td>
              <Table.Td>
                {a ? (
                  <StatusBadge status={a.result} />
                ) : (
                  <Text c="dimmed" size="sm">
                    {BAKE_TEXTS.noAttempt}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Tags tags={b.tags} />
              </Table.Td>
              <Table.Td>{formatDate(b.created_at)}</Table.Td>
              <Table.Td>
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
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
