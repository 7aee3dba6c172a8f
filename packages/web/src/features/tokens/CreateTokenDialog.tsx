import { useState } from 'react';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Select,
  Stack,
  TextInput,
} from '@mantine/core';
import {
  MemberRole,
  ProjectTokenCreate,
  TOKEN_EXPIRY_DAYS,
  type MemberRole as Role,
} from '@orrery/contract';
import type { ProjectPlace } from '@orrery/contract';
import { DialogActions } from '../../ui/DialogActions';
import { fieldErrorOf, messageOf } from '../../ui/errors';
import { notifySuccess } from '../../ui/notify';
import { useCreateToken } from './api';
import { TOKENS_UI as T } from './texts';

const DAY_MS = 86_400_000;

/**
 * Create token: name, role and expiry; then the token, once, with a copy button. Closing the
 * dialog forgets it: the server keeps only its hash.
 */
export function CreateTokenDialog(props: {
  place: ProjectPlace;
  opened: boolean;
  onClose(): void;
}) {
  const create = useCreateToken(props.place);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('writer');
  const [days, setDays] = useState<string>('30');
  const [token, setToken] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const nameCheck = ProjectTokenCreate.shape.name.safeParse(name);
  const nameError =
    (touched && !nameCheck.success ? nameCheck.error.issues[0].message : null) ??
    fieldErrorOf(create.error, 'name');
  const close = () => {
    setName('');
    setToken(null);
    setTouched(false);
    create.reset();
    props.onClose();
  };
  const submit = async () => {
    setTouched(true);
    if (!nameCheck.success) return;
    const expiresAt = new Date(Date.now() + Number(days) * DAY_MS).toISOString();
    try {
      const created = await create.mutateAsync({ name, role, expiresAt });
      setToken(created.token);
      notifySuccess(T.created(name));
    } catch {
      // Shown below, in the server's words.
    }
  };
  const failure =
    create.isError && !fieldErrorOf(create.error, 'name')
      ? messageOf(create.error, T.createFailed)
      : null;
  return (
    <Modal opened={props.opened} onClose={close} title={T.create} centered>
      {token ? (
        <Stack>
          <Alert color="yellow">{T.shownOnce}</Alert>
          <Code
            block
            aria-label={T.yourToken}
            // The whole token shows, wrapped anywhere, so that it can be read and selected.
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
          >
            {token}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={token}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy}>
                  {copied ? T.copied : T.copy}
                </Button>
              )}
            </CopyButton>
            <Button onClick={close}>{T.close}</Button>
          </Group>
        </Stack>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack>
            <TextInput
              label={T.name}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              onBlur={() => setTouched(true)}
              error={nameError}
              data-autofocus
            />
            <Select
              label={T.role}
              data={MemberRole.options}
              value={role}
              onChange={(v) => v && setRole(v as Role)}
              allowDeselect={false}
            />
            <Select
              label={T.expiry}
              data={TOKEN_EXPIRY_DAYS.map((d) => ({ value: String(d), label: T.days(d) }))}
              value={days}
              onChange={(v) => v && setDays(v)}
              allowDeselect={false}
            />
            {failure && <Alert color="red">{failure}</Alert>}
            <DialogActions
              cancelLabel={T.cancel}
              onCancel={close}
              confirmLabel={T.create}
              type="submit"
              loading={create.isPending}
            />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
