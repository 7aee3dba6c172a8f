import type { ReactNode } from 'react';
import { Button, Group, type MantineSpacing } from '@mantine/core';

/**
 * The footer of every dialog: Cancel, then the confirming button (a form's submit when no
 * `onClick` is given).
 */
export function DialogActions(props: {
  cancelLabel: string;
  onCancel: () => void;
  confirmLabel: ReactNode;
  type?: 'submit' | 'button';
  onClick?: () => void;
  loading?: boolean;
  disabled?: boolean;
  color?: string;
  mt?: MantineSpacing;
}) {
  const { cancelLabel, onCancel, confirmLabel, mt, ...confirm } = props;
  return (
    <Group justify="flex-end" mt={mt}>
      <Button variant="default" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button {...confirm}>{confirmLabel}</Button>
    </Group>
  );
}
