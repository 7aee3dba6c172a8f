import type { ReactNode } from 'react';
import { Table, Text } from '@mantine/core';

/** The label/value table of a details drawer; long values (ids, URIs) wrap anywhere. */
export function DetailsTable({ rows }: { rows: [label: string, value: ReactNode][] }) {
  return (
    <Table variant="vertical" withTableBorder>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={120}>{label}</Table.Th>
            <Table.Td>
              <Text size="sm" style={{ wordBreak: 'break-all' }} component="div">
                {value}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
