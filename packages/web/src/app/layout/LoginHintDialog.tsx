import { Button, Modal, Stack, Text } from '@mantine/core';
import { useLocation, useSearchParams } from 'react-router';
import { useAccount } from '../session/account';
import { useSession } from '../session/session-context';
import { LOGIN_HINT_TEXTS } from './texts';

/** A link sent to another address (e.g. an invitation) was opened while signed in as someone else. */
export function LoginHintDialog() {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const { user } = useAccount();
  const session = useSession();
  const hint = params.get('login_hint');
  if (!hint || hint.toLowerCase() === user.email.toLowerCase()) return null;

  const withoutHint = () => {
    const next = new URLSearchParams(params);
    next.delete('login_hint');
    return next;
  };
  const stay = () => setParams(withoutHint(), { replace: true });
  const switchAccount = async () => {
    const search = withoutHint().toString();
    await session.userManager.removeUser();
    await session.signIn({
      loginHint: hint,
      prompt: 'login',
      returnTo: search ? `${pathname}?${search}` : pathname,
    });
  };

  return (
    <Modal opened onClose={stay} title={LOGIN_HINT_TEXTS.title} centered>
      <Stack>
        <Text>{LOGIN_HINT_TEXTS.body(hint, user.email)}</Text>
        <Button onClick={switchAccount}>{LOGIN_HINT_TEXTS.switch(hint)}</Button>
        <Button variant="default" onClick={stay}>
          {LOGIN_HINT_TEXTS.stay(user.email)}
        </Button>
      </Stack>
    </Modal>
  );
}
