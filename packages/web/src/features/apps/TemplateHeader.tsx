import { Avatar, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { APPS_TEXTS } from './texts';

/** Logo, title and Version of a template, as the Explore and install pages show them. */
export function TemplateHeader(props: {
  title: string;
  logo?: string | null;
  version: string;
  children?: ReactNode;
}) {
  return (
    <Group gap="md" wrap="nowrap" align="center">
      <Avatar src={props.logo ?? undefined} size="lg" radius="md" alt="">
        {props.title.slice(0, 1)}
      </Avatar>
      <Stack gap={2} style={{ flex: 1 }}>
        <Title order={2}>{props.title}</Title>
        <Text size="sm" c="dimmed">
          {APPS_TEXTS.install.version(props.version)}
        </Text>
      </Stack>
      {props.children}
    </Group>
  );
}
