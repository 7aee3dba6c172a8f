import { Menu } from '@mantine/core';
import { IconServer2 } from '@tabler/icons-react';
import { ContextLink } from '../context/ContextLink';
import { usePlatformContext } from '../context/platform-context';
import { LAYOUT_TEXTS } from './texts';
import { SwitcherButton } from './SwitcherButton';

export function ClusterPopover() {
  const { cluster, clusters, select } = usePlatformContext();
  const others = clusters.filter((c) => c.name !== cluster?.name);
  const name = cluster?.name ?? LAYOUT_TEXTS.noCluster;
  return (
    <Menu position="bottom-start" width={240}>
      <Menu.Target>
        <SwitcherButton
          label={LAYOUT_TEXTS.cluster}
          value={name}
          icon={<IconServer2 size={16} />}
        />
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
