import { Group, Image, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconOrbit } from '@tabler/icons-react';
import type { Branding } from '../api/types';

/** White label: the title and logo come from the configuration, chosen by hostname. */
export function Brand({ branding, size = 'md' }: { branding: Branding; size?: 'sm' | 'md' }) {
  const logoSize = size === 'sm' ? 24 : 32;
  return (
    <Group gap="xs" wrap="nowrap">
      {branding.logoUrl ? (
        <Image src={branding.logoUrl} alt="" h={logoSize} w="auto" />
      ) : (
        <ThemeIcon size={logoSize} variant="light" aria-hidden>
          <IconOrbit size={logoSize * 0.7} />
        </ThemeIcon>
      )}
      <Stack gap={0}>
        <Text fw={700} size={size === 'sm' ? 'md' : 'lg'} lh={1.2}>
          {branding.title}
        </Text>
        {branding.poweredBy && <PoweredBy name={branding.poweredBy} />}
      </Stack>
    </Group>
  );
}

export const PoweredBy = ({ name }: { name: string }) => (
  <Text size="xs" c="dimmed">
    Powered by {name}
  </Text>
);
