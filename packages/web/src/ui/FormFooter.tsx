import { Group, Paper } from '@mantine/core';
import type { ReactNode } from 'react';
import { useToastsAbove } from '../app/toasts/useToastsAbove';

/**
 * The sticky footer of the install and configure forms: the configuration
 * buttons at the left, the submit button (and Cancel where there is room) at the right. At the
 * form's max width (720 px) it is one line; on a narrower screen the groups wrap, the submit
 * button under the others and still at the right. The toasts rise above it.
 */
export function FormFooter(props: { start?: ReactNode; end: ReactNode }) {
  const ref = useToastsAbove<HTMLDivElement>();
  return (
    <Paper ref={ref} withBorder p="sm" pos="sticky" bottom={0} style={{ zIndex: 2 }}>
      <Group justify="space-between" gap="xs" data-testid="form-footer">
        {props.start && <Group gap="xs">{props.start}</Group>}
        <Group gap="xs" wrap="nowrap" ml="auto">
          {props.end}
        </Group>
      </Group>
    </Paper>
  );
}
