import { Anchor, Button, Group, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { useAccount } from '../../app/session/account';
import { useSession } from '../../app/session/session-context';
import { Brand } from '../../ui/Brand';
import { CenteredPage } from '../../ui/CenteredPage';
import { SupportLink } from '../../ui/SupportLink';
import { ONBOARDING_TEXTS } from './texts';

export default function UserOnboardingPage() {
  const session = useSession();
  const { user } = useAccount();
  const navigate = useNavigate();
  return (
    <CenteredPage>
      <Brand branding={session.config.branding} />
      <Title order={2}>{ONBOARDING_TEXTS.title(user.name)}</Title>
      <Text fw={500}>{ONBOARDING_TEXTS.noOrg}</Text>
      <Text c="dimmed">{ONBOARDING_TEXTS.explain}</Text>
      <Button component={Link} to="/create-org">
        {ONBOARDING_TEXTS.createOrg}
      </Button>
      <Group justify="space-between">
        <Anchor component="button" type="button" onClick={() => navigate(-1)}>
          {ONBOARDING_TEXTS.back}
        </Anchor>
        <Button variant="default" onClick={() => session.signOut()}>
          {ONBOARDING_TEXTS.logOut}
        </Button>
      </Group>
      <SupportLink size="sm" />
    </CenteredPage>
  );
}
