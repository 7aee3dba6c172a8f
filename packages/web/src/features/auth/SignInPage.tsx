import { Button, Stack, Text } from '@mantine/core';
import { useLocation, useSearchParams } from 'react-router';
import { useSession } from '../../app/session/session-context';
import { AUTH_TEXTS } from './texts';

export function SignInPage() {
  const session = useSession();
  const [params] = useSearchParams();
  const returnTo = (useLocation().state as { returnTo?: string } | null)?.returnTo;
  const loginHint = params.get('login_hint') ?? undefined;
  return (
    <Stack gap="sm">
      <Text c="dimmed">{AUTH_TEXTS.intro}</Text>
      <Button onClick={() => session.signIn({ returnTo, loginHint })}>{AUTH_TEXTS.signIn}</Button>
      <Button
        variant="default"
        onClick={() => session.signIn({ signup: true, returnTo, loginHint })}
      >
        {AUTH_TEXTS.createAccount}
      </Button>
    </Stack>
  );
}
