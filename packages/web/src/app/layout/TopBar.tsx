import { Anchor, Burger, Group } from '@mantine/core';
import { useSession } from '../session/session-context';
import { Brand } from '../../ui/Brand';
import { ChatButton } from '../../features/assistant/ChatButton';
import { ContextLink } from '../context/ContextLink';
import { usePlatformContext } from '../context/platform-context';
import { ClusterPopover } from './ClusterPopover';
import { CreditsDisplay } from './CreditsDisplay';
import { ProjectPopover } from './ProjectPopover';
import { LAYOUT_TEXTS } from './texts';

export function TopBar({ navOpened, toggleNav }: { navOpened: boolean; toggleNav: () => void }) {
  const { config } = useSession();
  const { org, clusters, cluster } = usePlatformContext();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Burger
          opened={navOpened}
          onClick={toggleNav}
          hiddenFrom="sm"
          size="sm"
          aria-label={LAYOUT_TEXTS.openMenu}
        />
        <Anchor
          component={ContextLink}
          to="/"
          underline="never"
          c="inherit"
          aria-label={LAYOUT_TEXTS.home}
        >
          <Brand branding={config.branding} size="sm" />
        </Anchor>
        {clusters.length > 0 && <ClusterPopover />}
        {cluster && <ProjectPopover />}
      </Group>
      <Group gap="sm" wrap="nowrap">
        {org && <CreditsDisplay key={org.name} org={org} />}
        <ChatButton />
      </Group>
    </Group>
  );
}
