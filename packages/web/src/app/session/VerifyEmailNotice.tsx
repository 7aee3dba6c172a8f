import { Alert, Button, Group, Text } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { useResendVerification } from '../../api/users';
import { messageOf } from '../../ui/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { useAccount } from './account';

export const VERIFY_TEXTS = {
  title: 'Verify your e-mail address',
  body: (email: string, blocked: string) =>
    `Open the link in the mail we sent to ${email}. Until your address is verified you cannot ${blocked}.`,
  blockedDefault: 'create an organization or accept an invitation',
  resend: 'Resend verification mail',
  sent: (email: string) => `Verification mail sent to ${email}`,
  resendFailed: 'The verification mail could not be sent',
  verified: 'I have verified it',
};

/**
 * Told before acting, not after: shown where an unverified user would otherwise fail (creating an
 * organization, accepting an invitation) and as a banner in the layout. Nothing for the verified.
 */
export function VerifyEmailNotice({ blocked = VERIFY_TEXTS.blockedDefault }: { blocked?: string }) {
  const { user, refresh, refreshing } = useAccount();
  const resend = useResendVerification();
  if (user.emailVerified) return null;
  const send = () =>
    resend.mutate(user.username, {
      onSuccess: () => notifySuccess(VERIFY_TEXTS.sent(user.email)),
      onError: (error) => notifyError(messageOf(error, VERIFY_TEXTS.resendFailed)),
    });
  return (
    <Alert
      color="yellow"
      title={VERIFY_TEXTS.title}
      icon={<IconMailExclamation size={18} />}
      role="alert"
    >
      <Text size="sm">{VERIFY_TEXTS.body(user.email, blocked)}</Text>
      <Group gap="xs" mt="sm">
        <Button size="xs" variant="light" loading={resend.isPending} onClick={send}>
          {VERIFY_TEXTS.resend}
        </Button>
        {/* The server reads the address's state at each request: a new profile is enough. */}
        <Button size="xs" variant="subtle" loading={refreshing} onClick={() => void refresh()}>
          {VERIFY_TEXTS.verified}
        </Button>
      </Group>
    </Alert>
  );
}
