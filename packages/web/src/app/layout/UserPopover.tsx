import { Avatar, Badge, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import {
  IconCheck,
  IconKeyboard,
  IconLifebuoy,
  IconLogout,
  IconPlus,
  IconShieldLock,
} from '@tabler/icons-react';
import { useManagesOrg } from '../../features/people/manages';
import { initials } from '../../ui/initials';
import { ColorSchemeItems } from '../appearance/ColorSchemeItems';
import { useSupportMailto } from '../../ui/SupportLink';
import { SUPPORT_TEXTS } from '../../ui/support-mail';
import { ContextLink } from '../context/ContextLink';
import { SHORTCUT_TEXTS } from '../shortcuts/shortcuts';
import { usePlatformContext } from '../context/platform-context';
import { useAccount } from '../session/account';
import { useSession } from '../session/session-context';
import { LAYOUT_TEXTS } from './texts';

/** `onShortcuts`: the keyboard shortcuts' list, for those who do not know `?` opens it. */
export function UserPopover({ onShortcuts }: { onShortcuts?(): void } = {}) {
  const { user } = useAccount();
  const { signOut } = useSession();
  const { org, orgs, select } = usePlatformContext();
  // Settings and Billing are for the organization's managers only.
  const isOrgManager = useManagesOrg();
  const displayName = user.name || user.username;
  const support = useSupportMailto();
  return (
    <Menu position="top-start" width={260}>
      <Menu.Target>
        <UnstyledButton aria-label={displayName} p="xs" w="100%">
          <Group gap="sm" wrap="nowrap">
            <Avatar src={user.picture} radius="xl" color="blue">
              {initials(displayName)}
            </Avatar>
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text size="sm" fw={500} truncate>
                {displayName}
              </Text>
              <Text size="xs" c="dimmed" truncate>
                {org?.name ?? user.username}
              </Text>
            </Stack>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {/* Unverified users see no organization section until their e-mail is confirmed. */}
        {user.emailVerified && (
          <>
            <Menu.Label>{LAYOUT_TEXTS.organizations}</Menu.Label>
            {orgs.map((o) => (
              <Menu.Item
                key={o.name}
                onClick={() => select({ org: o.name })}
                leftSection={o.name === org?.name ? <IconCheck size={14} /> : <span />}
                rightSection={
                  <Badge size="xs" variant="light">
                    {LAYOUT_TEXTS.projectsCount(o.projectsCount)}
                  </Badge>
                }
              >
                {o.name}
              </Menu.Item>
            ))}
            {org && isOrgManager && (
              <Menu.Item component={ContextLink} to="/org-settings/general">
                {LAYOUT_TEXTS.settings}
              </Menu.Item>
            )}
            {org && (
              <Menu.Item component={ContextLink} to="/org-settings/users">
                {LAYOUT_TEXTS.people}
              </Menu.Item>
            )}
            {org && isOrgManager && (
              <Menu.Item component={ContextLink} to="/org-billing/usage">
                {LAYOUT_TEXTS.billing}
              </Menu.Item>
            )}
            <Menu.Item
              component={ContextLink}
              to="/create-org"
              leftSection={<IconPlus size={14} />}
            >
              {LAYOUT_TEXTS.createOrg}
            </Menu.Item>
            <Menu.Divider />
          </>
        )}
        {user.systemRole && (
          <>
            <Menu.Item
              component={ContextLink}
              to="/admin/users"
              leftSection={<IconShieldLock size={14} />}
            >
              {LAYOUT_TEXTS.administration}
            </Menu.Item>
            <Menu.Divider />
          </>
        )}
        <Stack gap={0} px="sm" py={4}>
          <Text size="sm" fw={500}>
            {user.name}
          </Text>
          <Text size="xs" c="dimmed">
            {user.username}
          </Text>
        </Stack>
        <Menu.Divider />
        <ColorSchemeItems />
        <Menu.Divider />
        {onShortcuts && (
          <Menu.Item leftSection={<IconKeyboard size={14} />} onClick={onShortcuts}>
            {SHORTCUT_TEXTS.title}
          </Menu.Item>
        )}
        {support && (
          <Menu.Item component="a" href={support} leftSection={<IconLifebuoy size={14} />}>
            {SUPPORT_TEXTS.link}
          </Menu.Item>
        )}
        <Menu.Item leftSection={<IconLogout size={14} />} onClick={() => signOut()}>
          {LAYOUT_TEXTS.logOut}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
