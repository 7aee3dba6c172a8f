import { Anchor, Button, Group, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { withContext } from '../../app/context/links';
import { useAccount } from '../../app/session/account';
import { useSession } from '../../app/session/session-context';
import { VerifyEmailNotice } from '../../app/session/VerifyEmailNotice';
import { Brand } from '../../ui/Brand';
import { CenteredPage } from '../../ui/CenteredPage';
import { SupportLink } from '../../ui/SupportLink';
import { ONBOARDING_TEXTS as T } from './texts';

/**
 * /user-onboarding: what to do next. A newcomer creates an organization (once verified) or waits
 * for an invitation; a member is told where they belong; the system administrator of a fresh
 * install goes on to Administration.
 */
export default function UserOnboardingPage() {
  const session = useSession();
  const { user, orgs } = useAccount();
  const navigate = useNavigate();
  const names = orgs.map((o) => o.name);
  return (
    <CenteredPage>
      <Brand branding={session.config.branding} />
      <Title order={2}>{T.title(user.name)}</Title>
      {names.length ? (
        <>
          <Text fw={500}>{T.memberOf(names)}</Text>
          <Text c="dimmed">{T.explainMember}</Text>
          <Button component={Link} to={withContext('/', { org: names[0] })}>
            {T.toConsole}
          </Button>
        </>
      ) : (
        <>
          <Text fw={500}>{T.noOrg}</Text>
          <Text c="dimmed">{user.systemRole ? T.adminNoOrg : T.explain}</Text>
        </>
      )}
      {user.systemRole && (
        <Button component={Link} to="/admin/users" variant={names.length ? 'default' : 'filled'}>
          {T.toAdmin}
        </Button>
      )}
      <VerifyEmailNotice blocked={names.length ? T.verifyBlockedMember : undefined} />
      {user.emailVerified ? (
        <Button component={Link} to="/create-org" variant={names.length ? 'default' : 'filled'}>
          {names.length ? T.createAnotherOrg : T.createOrg}
        </Button>
      ) : (
        <Button disabled>{names.length ? T.createAnotherOrg : T.createOrg}</Button>
      )}
      <Group justify="space-between">
        <Anchor component="button" type="button" onClick={() => navigate(-1)}>
          {T.back}
        </Anchor>
        <Button variant="default" onClick={() => session.signOut()}>
          {T.logOut}
        </Button>
      </Group>
      <SupportLink size="sm" />
    </CenteredPage>
  );
}
