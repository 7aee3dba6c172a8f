import { useEffect, useRef, useState } from 'react';
import { Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { CenteredPage } from '../../ui/CenteredPage';
import { SupportLink } from '../../ui/SupportLink';
import type { AuthErrorInfo } from './session-context';
import { useSession } from './session-context';
import { SESSION_TEXTS, titleOfErrorCode } from './texts';

export function LoadingScreen() {
  return (
    <Center mih="100vh">
      <Loader aria-label={SESSION_TEXTS.loading} />
    </Center>
  );
}

export function ConfigFailureScreen() {
  return (
    <CenteredPage>
      <Title order={3}>{SESSION_TEXTS.configFailure}</Title>
      <SupportLink />
    </CenteredPage>
  );
}

/**
 * Shown for an error from the identity provider or a rejected token. It tries one silent token
 * refresh on its own: most such errors are an expired session that renews without the user.
 */
export function AuthErrorScreen({
  error,
  autoRefresh,
  onAutoRefresh,
  onRecovered,
}: {
  error: AuthErrorInfo;
  autoRefresh: boolean;
  onAutoRefresh: () => void;
  onRecovered: () => void;
}) {
  const session = useSession();
  const [refreshing, setRefreshing] = useState(autoRefresh);
  const started = useRef(false);

  useEffect(() => {
    if (!autoRefresh || started.current) return;
    started.current = true;
    onAutoRefresh();
    session.refreshToken().then((ok) => {
      setRefreshing(false);
      if (ok) onRecovered();
    });
  }, [autoRefresh, session, onAutoRefresh, onRecovered]);

  return (
    <CenteredPage>
      <Title order={3}>{titleOfErrorCode(error.code)}</Title>
      <Text>{error.text || SESSION_TEXTS.authErrorFallbackText}</Text>
      {refreshing ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{SESSION_TEXTS.refreshing}</Text>
        </Group>
      ) : (
        <Group>
          <Button onClick={() => session.signIn({ prompt: 'login' })}>
            {SESSION_TEXTS.tryAgain}
          </Button>
          <Button variant="default" onClick={() => session.signOut()}>
            {SESSION_TEXTS.logOut}
          </Button>
        </Group>
      )}
      <Stack gap={0}>
        <SupportLink />
      </Stack>
    </CenteredPage>
  );
}
