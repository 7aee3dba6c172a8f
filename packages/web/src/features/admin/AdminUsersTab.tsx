import type { FormEvent } from 'react';
import { useState } from 'react';
import {
  ActionIcon,
  Button,
  Group,
  Loader,
  Menu,
  Modal,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconDots, IconUserPlus } from '@tabler/icons-react';
import {
  useCreateSystemUser,
  useDeleteSystemUser,
  useSetSystemRole,
  useSystemUsers,
  type SystemUser,
} from '../../api/admin';
import { SystemUserCreate } from '@orrery/contract';
import { useAccount } from '../../app/session/account';
import { DataTable } from '../../ui/DataTable';
import { formatDate } from '../../ui/dates';
import { DialogActions } from '../../ui/DialogActions';
import { fieldErrorOf, messageOf } from '../../ui/errors';
import { useLocalIssues } from '../../ui/issues';
import { notifyError, notifySuccess, withOutcome } from '../../ui/notify';
import { ADMIN_UI } from './texts';

const U = ADMIN_UI.users;

/** System users: list, create, change the system role, delete. */
export function AdminUsersTab() {
  const users = useSystemUsers();
  const { user: me } = useAccount();
  const setRole = useSetSystemRole();
  const remove = useDeleteSystemUser();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<SystemUser | null>(null);
  const run = (fn: () => Promise<unknown>, done: string) =>
    withOutcome(fn, done, ADMIN_UI.loadFailed);
  if (users.isPending) return <Loader aria-label={ADMIN_UI.tabs.users} />;
  return (
    <Stack>
      <Group justify="flex-end">
        <Button leftSection={<IconUserPlus size={16} />} onClick={() => setCreating(true)}>
          {U.create}
        </Button>
      </Group>
      <DataTable
        table={{ striped: true }}
        rows={users.data}
        rowKey={(u) => u.name}
        columns={[
          { header: U.name, cell: (u) => u.name },
          { header: U.email, cell: (u) => u.email },
          { header: U.role, cell: (u) => u.role },
          { header: U.created, cell: (u) => formatDate(u.createdAt) },
          {
            label: 'Actions',
            cell: (u) =>
              u.name !== me.username && (
                <Menu position="bottom-end">
                  <Menu.Target>
                    <ActionIcon variant="subtle" aria-label={`Actions for ${u.name}`}>
                      <IconDots size={16} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item
                      onClick={() => {
                        const role = u.role === 'admin' ? 'user' : 'admin';
                        void run(
                          () => setRole.mutateAsync({ name: u.name, role }),
                          U.updated(u.name),
                        );
                      }}
                    >
                      {u.role === 'admin' ? U.makeUser : U.makeAdmin}
                    </Menu.Item>
                    <Menu.Item color="red" onClick={() => setDeleting(u)}>
                      {U.delete(u.name)}
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              ),
          },
        ]}
      />
      <Modal opened={creating} onClose={() => setCreating(false)} title={U.create} centered>
        {creating && <CreateUserForm onClose={() => setCreating(false)} />}
      </Modal>
      <Modal
        opened={!!deleting}
        onClose={() => setDeleting(null)}
        title={deleting ? U.delete(deleting.name) : ''}
        centered
      >
        <Stack>
          <Text>{deleting ? U.confirmDelete(deleting.name) : null}</Text>
          <DialogActions
            cancelLabel={ADMIN_UI.cancel}
            onCancel={() => setDeleting(null)}
            confirmLabel={ADMIN_UI.delete}
            color="red"
            loading={remove.isPending}
            onClick={async () => {
              if (
                deleting &&
                (await run(() => remove.mutateAsync(deleting.name), U.deleted(deleting.name)))
              )
                setDeleting(null);
            }}
          />
        </Stack>
      </Modal>
    </Stack>
  );
}

function CreateUserForm({ onClose }: { onClose(): void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const create = useCreateSystemUser();
  const check = useLocalIssues(SystemUserCreate, { name, email, role: 'user' });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check.sendable()) return;
    try {
      await create.mutateAsync({ name: name.trim(), email: email.trim(), role: 'user' });
      notifySuccess(U.created_(name.trim()));
      onClose();
    } catch (error) {
      if (!fieldErrorOf(error, 'name') && !fieldErrorOf(error, 'email'))
        notifyError(messageOf(error, ADMIN_UI.loadFailed));
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={U.name}
          data-autofocus
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={check.shown('name') ?? fieldErrorOf(create.error, 'name')}
        />
        <TextInput
          label={U.email}
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={check.shown('email') ?? fieldErrorOf(create.error, 'email')}
        />
      </Stack>
      <DialogActions
        cancelLabel={ADMIN_UI.cancel}
        onCancel={onClose}
        confirmLabel={U.create}
        type="submit"
        loading={create.isPending}
        mt="lg"
      />
    </form>
  );
}
