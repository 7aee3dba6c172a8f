import { Center, Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/** Full-screen pages outside the main layout: startup states, onboarding, creation forms. */
export function CenteredPage({ children, width = 480 }: { children: ReactNode; width?: number }) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={width}>
        <Stack gap="md">{children}</Stack>
      </Paper>
    </Center>
  );
}
