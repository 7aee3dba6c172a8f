import { Button, Menu, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconServer2 } from '@tabler/icons-react';
import { ContextLink } from '../context/ContextLink';
import { usePlatformContext } from '../context/platform-context';
import { LAYOUT_TEXTS } from './texts';

export function ClusterPopover() {
  const { cluster, clusters, select } = usePlatformContext();
  const others = clusters.filter((c) => c.name !== cluster?.name);
  const name = cluster?.name ?? LAYOUT_TEXTS.noCluster;
  return (
    <Menu position="bottom-start" width={240}>
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          leftSection={<IconServer2 size={16} />}
          rightSection={<IconChevronDown size={14} />}
          aria-label={`${LAYOUT_TEXTS.cluster}: ${name}`}
        >
          <Stack gap={0} align="flex-start">
            <Text size="xs" c="dimmed" lh={1}>
              {LAYOUT_TEXTS.cluster}
            </Text>
            <Text size="sm" fw={500} lh={1.3}>
              {name}
            </Text>
          </Stack>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {cluster && (
          <>
            <Menu.Item component={ContextLink} to="/cluster-settings/general">
              {LAYOUT_TEXTS.settings}
            </Menu.Item>
            <Menu.Item component={ContextLink} to="/cluster-settings/users">
              {LAYOUT_TEXTS.people}
            </Menu.Item>
          </>
        )}
        {others.length > 0 && (
          <>
            <Menu.Divider />
            <Menu.Label>{LAYOUT_TEXTS.switchCluster}</Menu.Label>
            {others.map((c) => (
              <Menu.Item key={c.name} onClick={() => select({ cluster: c.name })}>
                {c.name}
              </Menu.Item>
            ))}
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
