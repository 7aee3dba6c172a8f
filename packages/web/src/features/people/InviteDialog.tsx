import type { FormEvent } from 'react';
import { useState } from 'react';
import { Autocomplete, Modal, Select, Stack } from '@mantine/core';
import {
  InviteEmail,
  OrgRole,
  SEARCH_MIN,
  SEARCH_MAX,
  type OrgRole as Role,
} from '@orrery/contract';
import { useCreateInvite } from '../../api/invites';
import { useUserLookup } from '../../api/people';
import { DialogActions } from '../../ui/DialogActions';
import { fieldErrorOf, messageOf } from '../../ui/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { PEOPLE_UI } from './texts';

/**
 * Invite by e-mail: search platform users by prefix after 2 characters, or
 * type the address of someone new, which must be valid; the role is chosen.
 */
export function InviteDialog({
  org,
  opened,
  onClose,
}: {
  org: string;
  opened: boolean;
  onClose(): void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={PEOPLE_UI.inviteUser} centered>
      {opened && <InviteForm org={org} onClose={onClose} />}
    </Modal>
  );
}

function InviteForm({ org, onClose }: { org: string; onClose(): void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('user');
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateInvite();
  const q = email.trim();
  const lookup = useUserLookup(q, q.length >= SEARCH_MIN);
  const found = (lookup.data ?? []).slice(0, SEARCH_MAX).map((u) => u.email);
  const invalid = InviteEmail.safeParse(email).error?.issues[0]?.message;
  const hint =
    q.length < SEARCH_MIN
      ? PEOPLE_UI.typeMore
      : lookup.isError
        ? PEOPLE_UI.userListFailed
        : lookup.isSuccess && found.length === 0
          ? PEOPLE_UI.noPlatformUsers
          : PEOPLE_UI.emailHint;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (invalid) return;
    try {
      await create.mutateAsync({ email: q, roleName: role, orgName: org });
      notifySuccess(PEOPLE_UI.invited(q, org));
      onClose();
    } catch (error) {
      if (!fieldErrorOf(error, 'email')) notifyError(messageOf(error, PEOPLE_UI.loadFailed));
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Autocomplete
          label={PEOPLE_UI.email}
          data-autofocus
          value={email}
          onChange={setEmail}
          data={found}
          filter={({ options }) => options}
          description={hint}
          error={(submitted && invalid) || fieldErrorOf(create.error, 'email')}
        />
        <Select
          label={PEOPLE_UI.role}
          data={OrgRole.options}
          value={role}
          onChange={(v) => v && setRole(v as Role)}
          allowDeselect={false}
        />
      </Stack>
      <DialogActions
        cancelLabel={PEOPLE_UI.cancel}
        onCancel={onClose}
        confirmLabel={PEOPLE_UI.invite}
        type="submit"
        loading={create.isPending}
        mt="lg"
      />
    </form>
  );
}
