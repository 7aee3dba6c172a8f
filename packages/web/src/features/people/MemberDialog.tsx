import type { FormEvent } from 'react';
import { useState } from 'react';
import { Modal, Select, Stack, TextInput } from '@mantine/core';
import { matchesPrefix } from '@orrery/contract';
import type { OrgUser } from '../../api/people';
import { DialogActions } from '../../ui/DialogActions';
import { messageOf } from '../../ui/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { UserPicker } from './UserPicker';
import { PEOPLE_UI } from './texts';

export type MemberDialogMode =
  | { kind: 'add' }
  /** `isNew`: a member through the organization, who gets a role of their own by this edit. */
  | { kind: 'edit'; userName: string; role: string; isNew?: boolean }
  | null;

/**
 * Add an organization member to a cluster or project, or change a member's role. Only members
 * not yet there are offered; Add needs a selection.
 */
export function MemberDialog(props: {
  mode: MemberDialogMode;
  roles: readonly string[];
  defaultRole: string;
  candidates: OrgUser[];
  /** Shown when the search finds no organization member. */
  emptyText: string;
  added(name: string): string;
  save(p: { userName: string; role: string; isNew: boolean }): Promise<unknown>;
  onClose(): void;
}) {
  const { mode } = props;
  return (
    <Modal
      opened={!!mode}
      onClose={props.onClose}
      title={mode?.kind === 'edit' ? PEOPLE_UI.editUser : PEOPLE_UI.addUser}
      centered
    >
      {mode && (
        <MemberForm key={mode.kind === 'edit' ? mode.userName : 'new'} {...props} mode={mode} />
      )}
    </Modal>
  );
}

function MemberForm(
  props: Parameters<typeof MemberDialog>[0] & { mode: NonNullable<MemberDialogMode> },
) {
  const editing = props.mode.kind === 'edit' ? props.mode : null;
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<string | null>(null);
  const [role, setRole] = useState(editing?.role ?? props.defaultRole);
  const [pending, setPending] = useState(false);
  const options = props.candidates
    .filter((u) =>
      matchesPrefix(
        search,
        u.userName,
        u.userInfo?.email,
        u.userInfo?.firstName,
        u.userInfo?.lastName,
      ),
    )
    .map((u) => ({ value: u.userName, label: `${u.userName} (${u.userInfo?.email ?? ''})` }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const userName = editing?.userName ?? picked;
    if (!userName) return;
    setPending(true);
    try {
      await props.save({ userName, role, isNew: !editing || editing.isNew === true });
      notifySuccess(editing ? PEOPLE_UI.userUpdated(userName) : props.added(userName));
      props.onClose();
    } catch (error) {
      notifyError(messageOf(error, PEOPLE_UI.loadFailed));
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {editing ? (
          <TextInput label={PEOPLE_UI.user} value={editing.userName} readOnly />
        ) : (
          <UserPicker
            search={search}
            onSearch={setSearch}
            options={options}
            value={picked}
            onChange={setPicked}
            emptyText={props.emptyText}
          />
        )}
        <Select
          label={PEOPLE_UI.role}
          data={[...props.roles]}
          value={role}
          onChange={(v) => v && setRole(v)}
          allowDeselect={false}
        />
      </Stack>
      <DialogActions
        cancelLabel={PEOPLE_UI.cancel}
        onCancel={props.onClose}
        confirmLabel={editing ? PEOPLE_UI.save : PEOPLE_UI.add}
        type="submit"
        disabled={!editing && !picked}
        loading={pending}
        mt="lg"
      />
    </form>
  );
}
