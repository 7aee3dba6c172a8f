import { ActionIcon, Anchor, Group, Tooltip } from '@mantine/core';
import { DataTable } from '../../../ui/DataTable';
import { DeleteAction } from '../../../ui/RowActions';
import { IconBriefcase, IconListDetails } from '@tabler/icons-react';
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
    <DataTable
      table={{ highlightOnHover: true, striped: true, verticalSpacing: 'sm' }}
      rows={props.flows}
      rowKey={(f) => f.id}
      columns={[
        {
          header: C.name,
          cell: (f) => (
            <Anchor component={ContextLink} to={bakesLink(f)}>
              {f.name}
            </Anchor>
          ),
        },
        { header: C.tags, cell: (f) => <Tags tags={[flowTag(f.name)]} /> },
        {
          header: C.actions,
          cell: (f) => (
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
                <DeleteAction
                  label={FLOW_TEXTS.deleteLabel(f.name)}
                  onClick={() => props.onDelete(f)}
                />
              </WhyNot>
            </Group>
          ),
        },
      ]}
    />
  );
}
