import { forwardRef, type ReactNode } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';

/** The top bar's labelled switcher ("Cluster: default"), the target of a context popover. */
export const SwitcherButton = forwardRef<
  HTMLButtonElement,
  { label: string; value: string; icon: ReactNode }
>(function SwitcherButton({ label, value, icon, ...rest }, ref) {
  return (
    <Button
      ref={ref}
      variant="subtle"
      color="gray"
      leftSection={icon}
      rightSection={<IconChevronDown size={14} />}
      aria-label={`${label}: ${value}`}
      {...rest}
    >
      <Stack gap={0} align="flex-start">
        <Text size="xs" c="dimmed" lh={1}>
          {label}
        </Text>
        <Text size="sm" fw={500} lh={1.3}>
          {value}
        </Text>
      </Stack>
    </Button>
  );
});
