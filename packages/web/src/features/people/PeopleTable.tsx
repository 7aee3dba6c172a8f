import { DeleteAction, EditAction } from '../../ui/RowActions';
import type { ReactNode } from 'react';
import { Group, Table, Tooltip } from '@mantine/core';
import { PEOPLE_UI } from './texts';

export interface PersonRow {
  userName: string;
  email: string;
  role: string;
  credits?: ReactNode;
}

/** Members of an organization, cluster or project: name, e-mail, role (and credits). */
export function PeopleTable(props: {
  rows: PersonRow[];
  withCredits?: boolean;
  canManage: boolean;
  onEdit(row: PersonRow): void;
  onRemove(row: PersonRow): void;
}) {
  const C = PEOPLE_UI.columns;
  return (
    <Table striped verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{C.name}</Table.Th>
          <Table.Th>{C.email}</Table.Th>
          <Table.Th>{C.role}</Table.Th>
          {props.withCredits && <Table.Th>{C.credits}</Table.Th>}
          {props.canManage && <Table.Th aria-label={C.actions} />}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.rows.map((r) => (
          <Table.Tr key={r.userName}>
            <Table.Td>{r.userName}</Table.Td>
            <Table.Td>{r.email}</Table.Td>
            <Table.Td>{r.role}</Table.Td>
            {props.withCredits && <Table.Td>{r.credits}</Table.Td>}
            {props.canManage && (
              <Table.Td>
                <Group gap={4} justify="flex-end">
                  <Tooltip label={PEOPLE_UI.edit(r.userName)}>
                    <EditAction
                      label={PEOPLE_UI.edit(r.userName)}
                      onClick={() => props.onEdit(r)}
                    />
                  </Tooltip>
                  <Tooltip label={PEOPLE_UI.remove(r.userName)}>
                    <DeleteAction
                      label={PEOPLE_UI.remove(r.userName)}
                      onClick={() => props.onRemove(r)}
                    />
                  </Tooltip>
                </Group>
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
