import { Alert, Button, Group, Loader, Stack, Table, Title } from '@mantine/core';
import { useAccount } from '../../app/session/account';
import { VerifyEmailNotice } from '../../app/session/VerifyEmailNotice';
import { IconMailOpened } from '@tabler/icons-react';
import { useIncomingInvites } from '../../api/invites';
import { formatDate } from '../../ui/dates';
import { EmptyState } from '../../ui/EmptyState';
import { messageOf } from '../../ui/errors';
import { InviteStatusBadge } from './InviteStatusBadge';
import { INVITE_TEXTS } from './texts';
import { useInviteActions } from './useInviteActions';

const C = INVITE_TEXTS.columns;

/** /invites: the invitations addressed to the signed-in user. */
export default function InvitesPage() {
  const invites = useIncomingInvites();
  const actions = useInviteActions();
  const { user } = useAccount();
  const list = invites.data ?? [];
  let body;
  if (invites.isPending) body = <Loader aria-label={INVITE_TEXTS.title} />;
  else if (invites.isError)
    body = <Alert color="red">{messageOf(invites.error, INVITE_TEXTS.loadFailed)}</Alert>;
  else if (list.length === 0)
    body = <EmptyState icon={<IconMailOpened size={24} />} title={INVITE_TEXTS.empty} />;
  else
    body = (
      <Table striped verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{C.org}</Table.Th>
            <Table.Th>{C.role}</Table.Th>
            <Table.Th>{C.expiry}</Table.Th>
            <Table.Th>{C.status}</Table.Th>
            <Table.Th aria-label={C.actions} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.map((i) => (
            <Table.Tr key={i.id}>
              <Table.Td>{i.organizationName}</Table.Td>
              <Table.Td>{i.role}</Table.Td>
              <Table.Td>{formatDate(i.expiredAt)}</Table.Td>
              <Table.Td>
                <InviteStatusBadge status={i.status} />
              </Table.Td>
              <Table.Td>
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
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
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
