import { ActionIcon } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';

/** The edit and delete icon buttons at the end of a table row; `label` names the row's item. */
export function EditAction(props: { label: string; onClick(): void; disabled?: boolean }) {
  return (
    <ActionIcon
      variant="subtle"
      aria-label={props.label}
      onClick={props.onClick}
      disabled={props.disabled}
    >
      <IconPencil size={16} />
    </ActionIcon>
  );
}

export function DeleteAction(props: { label: string; onClick(): void; disabled?: boolean }) {
  return (
    <ActionIcon
      variant="subtle"
      color="red"
      aria-label={props.label}
      onClick={props.onClick}
      disabled={props.disabled}
    >
      <IconTrash size={16} />
    </ActionIcon>
  );
}
