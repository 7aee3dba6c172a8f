import { ActionIcon, Badge, Table, Text } from '@mantine/core';
import { useCan } from '../../api/permissions';
import { WhyNot } from '../../ui/WhyNot';
import { IconTrash } from '@tabler/icons-react';
import type { Disk } from '../../api/disks';
import { diskLabel, formatDate, STATUS_COLOR, usageOf } from './format';
import { DISK_TEXTS } from './texts';
import { DiskCost } from '../billing/cost/DiskCost';

const C = DISK_TEXTS.columns;

/**
 * Columns: Name, Used / Storage, Owner, Status, Created, delete action; a click opens it. And
 * what each disk costs a day at the cluster's price, when the cluster names one.
 */
export function DisksTable(props: {
  disks: Disk[];
  /** The cluster's credits per GB-day; undefined when it does not say. */
  pricePerGbDay?: string;
  selected: string | null;
  onOpen(disk: Disk): void;
  onDelete(disk: Disk): void;
}) {
  // Deleting is the disk owner's, or needs manage on the disk (a project manager's).
  const mayDelete = useCan(props.disks.map((d) => ({ uri: d.uri, action: 'manage' })));
  return (
    <Table highlightOnHover striped verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{C.name}</Table.Th>
          <Table.Th>{C.usage}</Table.Th>
          {props.pricePerGbDay !== undefined && <Table.Th>{C.credits}</Table.Th>}
          <Table.Th>{C.owner}</Table.Th>
          <Table.Th>{C.status}</Table.Th>
          <Table.Th>{C.created}</Table.Th>
          <Table.Th aria-label={C.actions} />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.disks.map((d, i) => (
          <Table.Tr
            key={d.id}
            onClick={() => props.onOpen(d)}
            style={{ cursor: 'pointer' }}
            bg={props.selected === d.id ? 'var(--mantine-primary-color-light)' : undefined}
          >
            <Table.Td>
              {d.name ?? (
                <Text c="dimmed" size="sm" component="span">
                  {DISK_TEXTS.unnamed}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{usageOf(d)}</Table.Td>
            {props.pricePerGbDay !== undefined && (
              <Table.Td>
                <DiskCost bytes={d.storage} pricePerGbDay={props.pricePerGbDay} />
              </Table.Td>
            )}
            <Table.Td>{d.owner}</Table.Td>
            <Table.Td>
              <Badge color={STATUS_COLOR[d.status]} variant="light">
                {d.status}
              </Badge>
            </Table.Td>
            <Table.Td>{formatDate(d.createdAt)}</Table.Td>
            <Table.Td>
              <WhyNot can={mayDelete[i]} tooltip={DISK_TEXTS.delete}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={DISK_TEXTS.deleteLabel(diskLabel(d))}
                  onClick={(e) => {
                    e.stopPropagation();
                    props.onDelete(d);
                  }}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </WhyNot>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
