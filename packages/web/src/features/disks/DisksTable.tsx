import { Badge, Text } from '@mantine/core';
import { DataTable } from '../../ui/DataTable';
import { useCan } from '../../api/permissions';
import { WhyNot } from '../../ui/WhyNot';
import { DeleteAction } from '../../ui/RowActions';
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
    <DataTable
      table={{ highlightOnHover: true, striped: true, verticalSpacing: 'sm' }}
      rows={props.disks}
      rowKey={(d) => d.id}
      onRowClick={props.onOpen}
      selected={(d) => props.selected === d.id}
      columns={[
        {
          header: C.name,
          cell: (d) =>
            d.name ?? (
              <Text c="dimmed" size="sm" component="span">
                {DISK_TEXTS.unnamed}
              </Text>
            ),
        },
        { header: C.usage, cell: usageOf },
        props.pricePerGbDay !== undefined && {
          header: C.credits,
          cell: (d) => <DiskCost bytes={d.storage} pricePerGbDay={props.pricePerGbDay!} />,
        },
        { header: C.owner, cell: (d) => d.owner },
        {
          header: C.status,
          cell: (d) => (
            <Badge color={STATUS_COLOR[d.status]} variant="light">
              {d.status}
            </Badge>
          ),
        },
        { header: C.created, cell: (d) => formatDate(d.createdAt) },
        {
          label: C.actions,
          cell: (d, i) => (
            <WhyNot can={mayDelete[i]} tooltip={DISK_TEXTS.delete}>
              <DeleteAction
                label={DISK_TEXTS.deleteLabel(diskLabel(d))}
                onClick={(e) => {
                  e.stopPropagation();
                  props.onDelete(d);
                }}
              />
            </WhyNot>
          ),
        },
      ]}
    />
  );
}
