import { useState } from 'react';
import { Modal, Stack, TextInput } from '@mantine/core';
import { DialogActions } from '../../ui/DialogActions';
import { envVariableErrors, type EnvEntry } from '../env';
import { FORM_TEXTS as T } from '../texts';

/** The smallest of the dialog widths. */
export const ENV_DIALOG_WIDTH = 520;

type Variable = Pick<EnvEntry, 'name' | 'value'>;

/**
 * "The Environment Variable": one variable's name and value, each at
 * least 1 character; the confirming button stays disabled until both are given. Adds a new
 * variable, or edits one of the list when `initial` is given.
 */
export function EnvVariableModal(props: {
  opened: boolean;
  initial?: Variable;
  onClose(): void;
  onSave(variable: Variable): void;
}) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={T.envModalTitle}
      size={ENV_DIALOG_WIDTH}
    >
      {/* A fresh form each time the dialog opens. */}
      {props.opened && <VariableForm {...props} />}
    </Modal>
  );
}

function VariableForm(props: { initial?: Variable; onClose(): void; onSave(v: Variable): void }) {
  const [value, setValue] = useState<Variable>(props.initial ?? { name: '', value: '' });
  const [touched, setTouched] = useState({ name: false, value: false });
  const errors = envVariableErrors(value);
  const valid = !errors.name && !errors.value;
  const submit = (e: React.FormEvent) => {
    // The dialog sits inside the page's form: its submit must not send that one.
    e.preventDefault();
    e.stopPropagation();
    if (!valid) return setTouched({ name: true, value: true });
    props.onSave({ name: value.name.trim(), value: value.value });
    props.onClose();
  };
  const field = (key: keyof Variable) => ({
    label: key === 'name' ? T.envName : T.envValue,
    required: true,
    value: value[key],
    error: touched[key] ? errors[key] : undefined,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const next = e.currentTarget.value;
      setValue((v) => ({ ...v, [key]: next }));
      setTouched((t) => ({ ...t, [key]: true }));
    },
    onBlur: () => setTouched((t) => ({ ...t, [key]: true })),
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput {...field('name')} data-autofocus placeholder="MY_VARIABLE" />
        <TextInput {...field('value')} />
        <DialogActions
          cancelLabel={T.cancel}
          onCancel={props.onClose}
          confirmLabel={props.initial ? T.envModalSave : T.envModalAdd}
          type="submit"
          disabled={!valid}
        />
      </Stack>
    </form>
  );
}
