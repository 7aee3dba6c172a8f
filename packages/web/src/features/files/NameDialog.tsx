import { useState, type FormEvent } from 'react';
import { Modal, Stack, TextInput } from '@mantine/core';
import { messageOf } from '../../ui/errors';
import { notifyError } from '../../ui/notify';
import { nameError } from './paths';
import { DIALOG_WIDTH, FILE_TEXTS } from './texts';
import { DialogActions } from '../../ui/DialogActions';

/**
 * One name, validated (required, min 1) before `onSubmit`; add folder and rename
 * both use it. The parent mounts it per use, so the field starts from `initial` every time.
 */
export function NameDialog(props: {
  title: string;
  label: string;
  submit: string;
  initial?: string;
  onSubmit(name: string): Promise<unknown>;
  onClose(): void;
}) {
  const [name, setName] = useState(props.initial ?? '');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const error = touched ? nameError(name) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (nameError(name)) return;
    setBusy(true);
    try {
      await props.onSubmit(name.trim());
      props.onClose();
    } catch (e) {
      notifyError(messageOf(e, FILE_TEXTS.loadFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={props.onClose} title={props.title} size={DIALOG_WIDTH} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={props.label}
            required
            data-autofocus
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error}
          />
          <DialogActions
            cancelLabel={FILE_TEXTS.cancel}
            onCancel={props.onClose}
            confirmLabel={props.submit}
            type="submit"
            loading={busy}
          />
        </Stack>
      </form>
    </Modal>
  );
}
