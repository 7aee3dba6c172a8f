import { Center } from '@mantine/core';
import { useAccount } from '../../app/session/account';
import { useSession } from '../../app/session/session-context';
import { Brand } from '../../ui/Brand';
import { TermsModal } from './TermsModal';

export default function TermsScreen() {
  const session = useSession();
  const { user } = useAccount();
  return (
    <Center mih="100vh">
      <Brand branding={session.config.branding} />
      <TermsModal
        productTitle={session.config.branding.title}
        termsUrl={session.config.termsUrl}
        username={user.username || session.username}
        name={user.name}
        email={user.email}
        onLogout={() => session.signOut()}
      />
    </Center>
  );
}
