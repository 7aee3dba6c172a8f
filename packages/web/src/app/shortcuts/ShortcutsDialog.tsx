import { Group, Kbd, Modal, Table, Text } from '@mantine/core';
import type { Jump } from './shortcuts';
import { SHORTCUT_TEXTS as T } from './shortcuts';

function Keys({ keys }: { keys: string[] }) {
  return (
    <Group gap={6} wrap="nowrap">
      {keys.map((k, i) => (
        <Group key={k} gap={6} wrap="nowrap">
          {i > 0 && (
            <Text size="xs" c="dimmed">
              {T.then}
            </Text>
          )}
          <Kbd>{k}</Kbd>
        </Group>
      ))}
    </Group>
  );
}

/** The `?` dialog: every shortcut this user may use, drawn from the one table. */
export function ShortcutsDialog({
  opened,
  onClose,
  jumps,
}: {
  opened: boolean;
  onClose: () => void;
  jumps: Jump[];
}) {
  const rows: { keys: string[]; action: string }[] = [
    ...jumps.map((j) => ({ keys: [T.prefix, j.letter], action: T.goTo(j.label) })),
    { keys: [T.searchKey], action: T.search },
    { keys: [T.helpKey], action: T.help },
  ];
  return (
    <Modal opened={opened} onClose={onClose} title={T.title}>
      <Table verticalSpacing={4}>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.action}>
              <Table.Td w={140}>
                <Keys keys={r.keys} />
              </Table.Td>
              <Table.Td>{r.action}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" c="dimmed" mt="sm">
        {T.ignored}
      </Text>
    </Modal>
  );
}
