import { NavLink, ScrollArea, Stack } from '@mantine/core';
import { IconBook, IconExternalLink } from '@tabler/icons-react';
import { useLocation } from 'react-router';
import { usePendingInviteCount } from '../../api/invites';
import { ContextLink } from '../context/ContextLink';
import { FEATURES } from '../features';
import { InviteBanner } from './InviteBanner';
import { UserPopover } from './UserPopover';
import { LAYOUT_TEXTS } from './texts';

export function SideMenu({
  hasCluster,
  onShortcuts,
}: {
  hasCluster: boolean;
  /** Opens the list of keyboard shortcuts, as `?` does. */
  onShortcuts?(): void;
}) {
  const { pathname } = useLocation();
  const pendingInvites = usePendingInviteCount();
  return (
    <Stack h="100%" gap="sm" p="sm">
      <ScrollArea style={{ flex: 1 }}>
        {hasCluster &&
          FEATURES.map((f) => (
            <NavLink
              key={f.key}
              component={ContextLink}
              to={f.path}
              label={f.label}
              leftSection={<f.icon size={18} />}
              active={pathname === f.path || pathname.startsWith(`${f.path}/`)}
            />
          ))}
        <NavLink
          component="a"
          href={LAYOUT_TEXTS.docsHref}
          target="_blank"
          rel="noreferrer"
          label={LAYOUT_TEXTS.docs}
          leftSection={<IconBook size={18} />}
          rightSection={<IconExternalLink size={14} />}
        />
      </ScrollArea>
      <InviteBanner count={pendingInvites} />
      <UserPopover onShortcuts={onShortcuts} />
    </Stack>
  );
}
