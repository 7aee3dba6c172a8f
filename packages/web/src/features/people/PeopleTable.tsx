import { DeleteAction, EditAction } from '../../ui/RowActions';
import type { ReactNode } from 'react';
import { Group, Text } from '@mantine/core';
import { DataTable } from '../../ui/DataTable';
import { ALLOWED, useCan } from '../../api/permissions';
import { WhyNot } from '../../ui/WhyNot';
import { PEOPLE_UI } from './texts';

export interface PersonRow {
  userName: string;
  email: string;
  role: string;
  credits?: ReactNode;
  /** Said beside the role, e.g. that the role comes through the organization. */
  note?: string;
  /** False for a member there is nothing to remove of (through the organization). */
  removable?: boolean;
}

/** Members of an organization, cluster or project: name, e-mail, role (and credits). */
export function PeopleTable(props: {
  rows: PersonRow[];
  withCredits?: boolean;
  /** Managers see the actions column. */
  canManage: boolean;
  /** The member's permission URI: editing and removing each member is then asked of the server. */
  uriOf?(row: PersonRow): string;
  onEdit(row: PersonRow): void;
  onRemove(row: PersonRow): void;
}) {
  const C = PEOPLE_UI.columns;
  const { uriOf } = props;
  const can = useCan(
    props.rows.map((r) => (uriOf && props.canManage ? { uri: uriOf(r), action: 'manage' } : null)),
  );
  return (
    <DataTable
      table={{ striped: true, verticalSpacing: 'sm' }}
      rows={props.rows}
      rowKey={(r) => r.userName}
      columns={[
        { header: C.name, cell: (r) => r.userName },
        { header: C.email, cell: (r) => r.email },
        {
          header: C.role,
          cell: (r) => (
            <>
              {r.role}
              {r.note && (
                <Text span size="sm" c="dimmed">
                  {` (${r.note})`}
                </Text>
              )}
            </>
          ),
        },
        props.withCredits && { header: C.credits, cell: (r) => r.credits },
        props.canManage && {
          label: C.actions,
          cell: (r, i) => (
            <Group gap={4} justify="flex-end">
              <WhyNot can={uriOf ? can[i] : ALLOWED} tooltip={PEOPLE_UI.edit(r.userName)}>
                <EditAction label={PEOPLE_UI.edit(r.userName)} onClick={() => props.onEdit(r)} />
              </WhyNot>
              {r.removable !== false && (
                <WhyNot can={uriOf ? can[i] : ALLOWED} tooltip={PEOPLE_UI.remove(r.userName)}>
                  <DeleteAction
                    label={PEOPLE_UI.remove(r.userName)}
                    onClick={() => props.onRemove(r)}
                  />
                </WhyNot>
              )}
            </Group>
          ),
        },
      ]}
    />
  );
}
