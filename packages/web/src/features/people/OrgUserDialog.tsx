import type { FormEvent } from 'react';
import { useState } from 'react';
import { Modal, Select, Stack, TextInput } from '@mantine/core';
import {
  Credits,
  OrgRole,
  SEARCH_MIN,
  creditsOfField,
  type OrgRole as Role,
} from '@orrery/contract';
import { useAddOrgUser, useUpdateOrgUser, useUserLookup, type OrgUser } from '../../api/people';
import { DialogActions } from '../../ui/DialogActions';
import { fieldErrorOf, messageOf } from '../../ui/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { UserPicker } from './UserPicker';
import { PEOPLE_UI } from './texts';

/** Add a platform user to the organization, or edit a member's role and credits. */
export function OrgUserDialog(props: {
  org: string;
  mode: { kind: 'add' } | { kind: 'edit'; user: OrgUser } | null;
  onClose(): void;
}) {
  const editing = props.mode?.kind === 'edit' ? props.mode.user : null;
  return (
    <Modal
      opened={!!props.mode}
      onClose={props.onClose}
      title={editing ? PEOPLE_UI.editUser : PEOPLE_UI.addUser}
      centered
    >
      {props.mode && (
        <OrgUserForm
          key={editing?.userName ?? 'new'}
          org={props.org}
          user={editing}
          onClose={props.onClose}
        />
      )}
    </Modal>
  );
}

function OrgUserForm({
  org,
  user,
  onClose,
}: {
  org: string;
  user: OrgUser | null;
  onClose(): void;
}) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<string | null>(null);
  const [role, setRole] = useState<Role>(user?.role ?? 'user');
  const [credits, setCredits] = useState(user?.balance.credits ?? '');
  const [submitted, setSubmitted] = useState(false);
  const add = useAddOrgUser(org);
  const update = useUpdateOrgUser(org);
  const lookup = useUserLookup(search.trim(), !user && search.trim().length >= SEARCH_MIN);
  const creditsError = Credits.safeParse(creditsOfField(credits)).error?.issues[0]?.message;
  const save = user ? update : add;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const userName = user?.userName ?? picked;
    if (!userName || creditsError) return;
    try {
      await save.mutateAsync({ userName, role, credits: creditsOfField(credits) });
      notifySuccess(PEOPLE_UI.userUpdated(userName));
      onClose();
    } catch (error) {
      notifyError(messageOf(error, PEOPLE_UI.loadFailed));
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {user ? (
          <TextInput label={PEOPLE_UI.user} value={user.userName} readOnly />
        ) : (
          <UserPicker
            search={search}
            onSearch={setSearch}
            options={(lookup.data ?? []).map((u) => ({
              value: u.name,
              label: `${u.name} (${u.email})`,
            }))}
            value={picked}
            onChange={setPicked}
            emptyText={lookup.isError ? PEOPLE_UI.lookupFailed : PEOPLE_UI.noPlatformUsers}
          />
        )}
        <Select
          label={PEOPLE_UI.role}
          data={OrgRole.options}
          value={role}
          onChange={(v) => v && setRole(v as Role)}
          allowDeselect={false}
        />
        <TextInput
          label={PEOPLE_UI.credits}
          description={PEOPLE_UI.creditsHint}
          inputMode="decimal"
          value={credits}
          onChange={(e) => setCredits(e.currentTarget.value)}
          error={(submitted && creditsError) || fieldErrorOf(save.error, 'balance.credits')}
        />
      </Stack>
      <DialogActions
        cancelLabel={PEOPLE_UI.cancel}
        onCancel={onClose}
        confirmLabel={user ? PEOPLE_UI.save : PEOPLE_UI.add}
        type="submit"
        disabled={!user && !picked}
        loading={save.isPending}
        mt="lg"
      />
    </form>
  );
}
