import { useState, type FormEvent } from 'react';
import { Input, Modal, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { useShare, type StorageAction } from '../../api/storage';
import { messageOf } from '../../ui/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { DIALOG_WIDTH, FILE_TEXTS, PERMISSIONS } from './texts';
import { DialogActions } from '../../ui/DialogActions';

const T = FILE_TEXTS.shareDialog;

/**
 * Share a resource with a user: a username of at least one character and a
 * permission of read, write or manage, read by default. Any permission URI works: files share
 * `storage://…`, the job page shares `job://CLUSTER/ORG/PROJECT/ID`.
 */
export function ShareDialog(props: { name: string; uri: string; onClose(): void }) {
  const share = useShare();
  const [username, setUsername] = useState('');
  const [action, setAction] = useState<StorageAction>('read');
  const [touched, setTouched] = useState(false);
  const error = touched && username.trim().length < 1 ? FILE_TEXTS.errors.username : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    const name = username.trim();
    if (name.length < 1) return;
    try {
      await share.mutateAsync({ username: name, uri: props.uri, action });
      notifySuccess(T.granted(name));
      props.onClose();
    } catch (e) {
      notifyError(messageOf(e, FILE_TEXTS.loadFailed));
    }
  };

  return (
    <Modal opened onClose={props.onClose} title={T.title(props.name)} size={DIALOG_WIDTH} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={T.username}
            required
            data-autofocus
            value={username}
            onChange={(e) => setUsername(e.currentTarget.value)}
            error={error}
          />
          <Input.Wrapper label={T.permission}>
            <SegmentedControl
              fullWidth
              aria-label={T.permission}
              value={action}
              onChange={(v) => setAction(v as StorageAction)}
              data={PERMISSIONS.map((p) => ({ value: p, label: p }))}
            />
          </Input.Wrapper>
          <DialogActions
            cancelLabel={FILE_TEXTS.cancel}
            onCancel={props.onClose}
            confirmLabel={T.submit}
            type="submit"
            loading={share.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
