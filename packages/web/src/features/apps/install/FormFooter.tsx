import { Group, Paper } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The sticky footer of the install and configure forms (workloads §2 Apps): the configuration
 * buttons at the left, Cancel and the submit button at the right. Compact buttons keep it on one
 * line at the form's max width (720 px); on a narrower screen the right group wraps under the
 * left one and stays right-aligned.
 */
export function FormFooter(props: { start?: ReactNode; end: ReactNode }) {
  return (
    <Paper withBorder p="sm" pos="sticky" bottom={0} style={{ zIndex: 2 }}>
      <Group justify="space-between" gap="xs" data-testid="form-footer">
        {props.start && (
          <Group gap="xs" wrap="nowrap">
            {props.start}
          </Group>
        )}
        <Group gap="xs" wrap="nowrap" ml="auto">
          {props.end}
        </Group>
      </Group>
    </Paper>
  );
}
