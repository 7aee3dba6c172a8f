import { Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

export function EmptyState({
  icon,
  title,
  description,
  action,
}: {
  icon?: ReactNode;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Stack align="center" gap="sm" py="xl" ta="center">
      {icon && (
        <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
          {icon}
        </ThemeIcon>
      )}
      <Text fw={600} size="lg">
        {title}
      </Text>
      {description && (
        <Text component="div" c="dimmed" maw={480}>
          {description}
        </Text>
      )}
      {action}
    </Stack>
  );
}
