import { Group, Text } from '@mantine/core';
import { IconServerOff } from '@tabler/icons-react';
import { EmptyState } from '../../ui/EmptyState';
import { SupportLink } from '../../ui/SupportLink';
import { HOME_TEXTS } from './texts';

export function NoClusterWelcome({ org }: { org: string }) {
  return (
    <EmptyState
      icon={<IconServerOff size={28} />}
      title={HOME_TEXTS.noClusterTitle}
      description={
        <>
          <Text fw={500}>{HOME_TEXTS.noClusters}</Text>
          <Text c="dimmed">{HOME_TEXTS.noClusterText(org)}</Text>
        </>
      }
      action={
        <Group>
          <SupportLink />
        </Group>
      }
    />
  );
}
