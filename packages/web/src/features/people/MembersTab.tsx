import { useState } from 'react';
import { Alert, Button, Group, Loader, Stack } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useOrgUsers } from '../../api/people';
import { EmptyState } from '../../ui/EmptyState';
import { messageOf } from '../../ui/errors';
import { ConfirmRemove } from './ConfirmRemove';
import { MemberDialog, type MemberDialogMode } from './MemberDialog';
import { PeopleTable } from './PeopleTable';
import { PEOPLE_UI } from './texts';

interface Member {
  userName: string;
  role: string;
  userInfo?: { email: string };
}

/** The users of a cluster or a project: list, add from the organization, edit role, remove. */
export function MembersTab<M extends Member>(props: {
  org: string;
  where: string;
  members: UseQueryResult<M[]>;
  canManage: boolean;
  /** A member's permission URI, when editing and removing each is asked of the server. */
  uriOf?(userName: string): string;
  roles: readonly string[];
  defaultRole: string;
  empty: string;
  added(name: string): string;
  save(p: { userName: string; role: string; isNew: boolean }): Promise<unknown>;
  remove(name: string): Promise<unknown>;
  removing: boolean;
  /**
   * A cluster: every member of the organization may use it (docs/permissions.md), with this role
   * unless given another. They are listed too; editing one gives them a role of their own, and
   * there is nothing to remove (they stay through the organization).
   */
  inheritedRole?: string;
}) {
  const orgUsers = useOrgUsers(props.org);
  const [dialog, setDialog] = useState<MemberDialogMode>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const list = props.members.data ?? [];
  const present = new Set(list.map((m) => m.userName));
  const candidates = (orgUsers.data ?? []).filter((u) => !present.has(u.userName));
  const inherited = props.inheritedRole
    ? candidates.map((u) => ({
        userName: u.userName,
        email: u.userInfo?.email ?? '',
        role: props.inheritedRole!,
        note: PEOPLE_UI.throughOrg,
        removable: false,
      }))
    : [];
  const rows = [
    ...list.map((m) => ({ userName: m.userName, email: m.userInfo?.email ?? '', role: m.role })),
    ...inherited,
  ].sort((a, b) => a.userName.localeCompare(b.userName));

  let body;
  if (props.members.isPending) body = <Loader aria-label={PEOPLE_UI.tabs.users} />;
  else if (props.members.isError)
    body = <Alert color="red">{messageOf(props.members.error, PEOPLE_UI.loadFailed)}</Alert>;
  else if (rows.length === 0) body = <EmptyState title={props.empty} />;
  else
    body = (
      <PeopleTable
        canManage={props.canManage}
        uriOf={props.uriOf && ((r) => props.uriOf!(r.userName))}
        rows={rows}
        onEdit={(r) =>
          setDialog({
            kind: 'edit',
            userName: r.userName,
            role: r.role,
            isNew: !present.has(r.userName),
          })
        }
        onRemove={(r) => setRemoving(r.userName)}
      />
    );
  return (
    <Stack>
      {props.canManage && (
        <Group justify="flex-end">
          <Button
            leftSection={<IconUserPlus size={16} />}
            onClick={() => setDialog({ kind: 'add' })}
          >
            {PEOPLE_UI.addUser}
          </Button>
        </Group>
      )}
      {body}
      <MemberDialog
        mode={dialog}
        roles={props.roles}
        defaultRole={props.defaultRole}
        candidates={candidates}
        emptyText={PEOPLE_UI.noOrgUsers(props.org)}
        added={props.added}
        save={props.save}
        onClose={() => setDialog(null)}
      />
      <ConfirmRemove
        name={removing}
        where={props.where}
        pending={props.removing}
        onRemove={props.remove}
        onClose={() => setRemoving(null)}
      />
    </Stack>
  );
}
