import { useEffect, useState } from 'react';
import { Button, Group, Loader, Stack, Title } from '@mantine/core';
import { DataTable } from '../../ui/DataTable';
import { IconMail, IconUserPlus } from '@tabler/icons-react';
import { orgUri } from '@orrery/contract';
import { useOrgInvites, useRemoveInvite, useResendInvite, type Invite } from '../../api/invites';
import { useOrgUsers, useRemoveOrgUser, type OrgUser } from '../../api/people';
import { memberUri } from '../../api/permissions';
import { useOrgManage } from './manages';
import { WhyNot } from '../../ui/WhyNot';
import { EmptyState } from '../../ui/EmptyState';
import { notifyError, withOutcome } from '../../ui/notify';
import { inviteColumns } from '../invites/columns';
import { ConfirmRemove } from './ConfirmRemove';
import { InviteDialog } from './InviteDialog';
import { OrgUserDialog } from './OrgUserDialog';
import { PeopleTable } from './PeopleTable';
import { PEOPLE_UI } from './texts';

/** The organization's users; only its managers add, invite, edit and remove. */
export function OrgUsersTab({ org }: { org: string }) {
  const users = useOrgUsers(org);
  const managing = useOrgManage();
  const manages = managing.allowed;
  const [dialog, setDialog] = useState<{ kind: 'add' } | { kind: 'edit'; user: OrgUser } | null>(
    null,
  );
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const remove = useRemoveOrgUser(org);

  useEffect(() => {
    if (users.isError) notifyError(PEOPLE_UI.lookupFailed);
  }, [users.isError]);

  const list = users.data ?? [];
  return (
    <Stack>
      <Group justify="flex-end">
        <WhyNot can={managing}>
          <Button
            variant="default"
            leftSection={<IconUserPlus size={16} />}
            onClick={() => setDialog({ kind: 'add' })}
          >
            {PEOPLE_UI.addUser}
          </Button>
        </WhyNot>
        <WhyNot can={managing}>
          <Button leftSection={<IconMail size={16} />} onClick={() => setInviting(true)}>
            {PEOPLE_UI.inviteUser}
          </Button>
        </WhyNot>
      </Group>
      {users.isPending ? (
        <Loader aria-label={PEOPLE_UI.tabs.users} />
      ) : list.length === 0 ? (
        <EmptyState title={PEOPLE_UI.noOrgUsers(org)} />
      ) : (
        <PeopleTable
          withCredits
          canManage={manages}
          uriOf={(r) => memberUri(orgUri(org), r.userName)}
          rows={list.map((u) => ({
            userName: u.userName,
            email: u.userInfo?.email ?? '',
            role: u.role,
            credits: u.balance.credits ?? PEOPLE_UI.unlimited,
          }))}
          onEdit={(r) =>
            setDialog({ kind: 'edit', user: list.find((u) => u.userName === r.userName)! })
          }
          onRemove={(r) => setRemoving(r.userName)}
        />
      )}
      {manages && <OrgInvites org={org} />}
      <OrgUserDialog org={org} mode={dialog} onClose={() => setDialog(null)} />
      <InviteDialog org={org} opened={inviting} onClose={() => setInviting(false)} />
      <ConfirmRemove
        name={removing}
        where={org}
        pending={remove.isPending}
        onRemove={(n) => remove.mutateAsync(n)}
        onClose={() => setRemoving(null)}
      />
    </Stack>
  );
}

/** Invitations sent from the organization, with resend and remove. */
function OrgInvites({ org }: { org: string }) {
  const invites = useOrgInvites(org, true);
  const resend = useResendInvite();
  const remove = useRemoveInvite();
  const open = (invites.data ?? []).filter((i) => i.status !== 'accepted');
  if (open.length === 0) return null;
  const act = (run: () => Promise<unknown>, done: string) =>
    withOutcome(run, done, PEOPLE_UI.loadFailed);
  const C = PEOPLE_UI.columns;
  return (
    <Stack gap="xs">
      <Title order={4}>{PEOPLE_UI.invites}</Title>
      <DataTable
        table={{ striped: true }}
        rows={open}
        rowKey={(i: Invite) => i.id}
        columns={[
          { header: C.email, cell: (i) => i.email },
          ...inviteColumns(C),
          {
            label: C.actions,
            cell: (i) => (
              <Group gap="xs" justify="flex-end">
                <Button
                  size="xs"
                  variant="default"
                  onClick={() =>
                    act(
                      () => resend.mutateAsync({ id: i.id, orgName: org }),
                      PEOPLE_UI.resent(i.email),
                    )
                  }
                >
                  {PEOPLE_UI.resend}
                </Button>
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  onClick={() =>
                    act(() => remove.mutateAsync(i.id), PEOPLE_UI.inviteRemoved(i.email))
                  }
                >
                  {PEOPLE_UI.removeLabel}
                </Button>
              </Group>
            ),
          },
        ]}
      />
    </Stack>
  );
}
