import { Group, Text, Title } from '@mantine/core';
import { Outlet } from 'react-router';
import { useSession } from '../../app/session/session-context';
import { Brand } from '../../ui/Brand';
import { CenteredPage } from '../../ui/CenteredPage';
import { SupportLink } from '../../ui/SupportLink';
import { AUTH_TEXTS } from './texts';

/** The console's side of sign-in; the login form itself is served by the identity provider. */
export function AuthLayout() {
  const { config } = useSession();
  return (
    <CenteredPage width={420}>
      <Brand branding={config.branding} />
      <Title order={2}>{AUTH_TEXTS.welcome(config.branding.title)}</Title>
      <Outlet />
      <Group gap={4}>
        <Text size="sm" c="dimmed">
          {AUTH_TEXTS.needHelp}
        </Text>
        <SupportLink size="sm" />
      </Group>
    </CenteredPage>
  );
}
