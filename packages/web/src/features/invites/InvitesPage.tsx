import { Button, Group, Stack, Title } from '@mantine/core';
import { useAccount } from '../../app/session/account';
import { VerifyEmailNotice } from '../../app/session/VerifyEmailNotice';
import { IconMailOpened } from '@tabler/icons-react';
import { useIncomingInvites } from '../../api/invites';
import { EmptyState } from '../../ui/EmptyState';
import { DataTable } from '../../ui/DataTable';
import { inviteColumns } from './columns';
import { INVITE_TEXTS } from './texts';
import { useInviteActions } from './useInviteActions';

const C = INVITE_TEXTS.columns;

/** /invites: the invitations addressed to the signed-in user. */
export default function InvitesPage() {
  const invites = useIncomingInvites();
  const actions = useInviteActions();
  const { user } = useAccount();
  const list = invites.data ?? [];
  const body = (
    <DataTable
      table={{ striped: true, verticalSpacing: 'sm' }}
      status={{ query: invites, loading: INVITE_TEXTS.title, failed: INVITE_TEXTS.loadFailed }}
      empty={<EmptyState icon={<IconMailOpened size={24} />} title={INVITE_TEXTS.empty} />}
      rows={list}
      rowKey={(i) => i.id}
      columns={[
        { header: C.org, cell: (i) => i.organizationName },
        ...inviteColumns(C),
        {
          label: C.actions,
          cell: (i) => (
            <Group gap="xs" justify="flex-end">
              <Button
                size="xs"
                variant="default"
                disabled={i.status !== 'pending' || actions.pending}
                onClick={() => actions.decline(i)}
              >
                {INVITE_TEXTS.decline}
              </Button>
              <Button
                size="xs"
                disabled={i.status !== 'pending' || actions.pending || !user.emailVerified}
                onClick={() => actions.accept(i)}
              >
                {INVITE_TEXTS.accept}
              </Button>
            </Group>
          ),
        },
      ]}
    />
  );
  return (
    <Stack>
      <Title order={2}>{INVITE_TEXTS.title}</Title>
      {list.some((i) => i.status === 'pending') && (
        <VerifyEmailNotice blocked={INVITE_TEXTS.verifyBlockedAll} />
      )}
      {body}
    </Stack>
  );
}
