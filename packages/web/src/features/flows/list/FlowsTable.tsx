import { ActionIcon, Anchor, Group, Table, Tooltip } from '@mantine/core';
import { IconBriefcase, IconListDetails, IconTrash } from '@tabler/icons-react';
import type { FlowProjectWire } from '@orrery/contract';
import { ContextLink } from '../../../app/context/ContextLink';
import { flowTag } from '../../jobs/list/useListParams';
import { WhyNot } from '../../../ui/WhyNot';
import { bakesLink, flowJobsLink, useFlowWrite } from '../rules';
import { Tags } from '../StatusBadge';
import { FLOW_TEXTS } from '../texts';

const C = FLOW_TEXTS.columns;

/**
 * Columns: Name, Tags, Actions (View real-time jobs, View bakes, Delete). The flow API keeps
 * no tags on a flow, so the Tags column shows the one tag every job of the flow carries.
 */
export function FlowsTable(props: {
  flows: FlowProjectWire[];
  onDelete(flow: FlowProjectWire): void;
}) {
  const write = useFlowWrite();
  return (
    <Table highlightOnHover striped verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{C.name}</Table.Th>
          <Table.Th>{C.tags}</Table.Th>
          <Table.Th>{C.actions}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.flows.map((f) => (
          <Table.Tr key={f.id}>
            <Table.Td>
              <Anchor component={ContextLink} to={bakesLink(f)}>
                {f.name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Tags tags={[flowTag(f.name)]} />
            </Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                <Tooltip label={FLOW_TEXTS.viewJobs}>
                  <ActionIcon
                    variant="subtle"
                    component={ContextLink}
                    to={flowJobsLink(f)}
                    aria-label={`${FLOW_TEXTS.viewJobs} of ${f.name}`}
                  >
                    <IconBriefcase size={16} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={FLOW_TEXTS.viewBakes}>
                  <ActionIcon
                    variant="subtle"
                    component={ContextLink}
                    to={bakesLink(f)}
                    aria-label={`${FLOW_TEXTS.viewBakes} of ${f.name}`}
                  >
                    <IconListDetails size={16} />
                  </ActionIcon>
                </Tooltip>
                <WhyNot can={write} tooltip={FLOW_TEXTS.delete}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={FLOW_TEXTS.deleteLabel(f.name)}
                    onClick={() => props.onDelete(f)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </WhyNot>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
