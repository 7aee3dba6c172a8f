import { Alert, Anchor, Button, Group, Loader, Stack, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useInvite } from '../../api/invites';
import { useAccount } from '../../app/session/account';
import { VerifyEmailNotice } from '../../app/session/VerifyEmailNotice';
import { CenteredPage } from '../../ui/CenteredPage';
import { formatDate } from '../../ui/dates';
import { DetailsTable } from '../../ui/DetailsTable';
import { InviteStatusBadge } from './InviteStatusBadge';
import { INVITE_TEXTS } from './texts';
import { useInviteActions } from './useInviteActions';

/** The invitation a mail links to: organization, expiry and role, and "Accept and Go". */
export default function InviteScreen() {
  const { id = '' } = useParams();
  const invite = useInvite(id);
  const actions = useInviteActions();
  const { user } = useAccount();
  const i = invite.data;
  const open = i?.status === 'pending';
  return (
    <CenteredPage width={520}>
      <Stack>
        <Title order={2}>{INVITE_TEXTS.screenTitle}</Title>
        {invite.isPending && <Loader aria-label={INVITE_TEXTS.screenTitle} />}
        {invite.isError && <Alert color="red">{INVITE_TEXTS.notFound}</Alert>}
        {i && (
          <>
            <DetailsTable
              rows={[
                [INVITE_TEXTS.organization, i.organizationName],
                [INVITE_TEXTS.expires, formatDate(i.expiredAt)],
                [INVITE_TEXTS.role, i.role],
                [INVITE_TEXTS.columns.status, <InviteStatusBadge key="s" status={i.status} />],
              ]}
            />
            {!open && <Alert color="yellow">{INVITE_TEXTS.notOpen}</Alert>}
            {open && <VerifyEmailNotice blocked={INVITE_TEXTS.verifyBlocked} />}
            <Group justify="flex-end">
              <Button
                variant="default"
                disabled={i.status !== 'pending' || actions.pending}
                onClick={() => actions.decline(i)}
              >
                {INVITE_TEXTS.decline}
              </Button>
              <Button
                disabled={!open || !user.emailVerified}
                loading={actions.pending}
                onClick={() => actions.accept(i)}
              >
                {INVITE_TEXTS.acceptAndGo}
              </Button>
            </Group>
          </>
        )}
        <Anchor component={Link} to="/invites" size="sm">
          {INVITE_TEXTS.allInvites}
        </Anchor>
      </Stack>
    </CenteredPage>
  );
}
