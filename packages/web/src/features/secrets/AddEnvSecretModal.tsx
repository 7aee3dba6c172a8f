import type { ProjectPlace } from '@orrery/contract';
import { useState } from 'react';
import { Modal, Stack, TextInput } from '@mantine/core';

import { SecretPicker } from './SecretPicker';
import { secretFullUri, secretPath } from './scope';
import { SECRET_DIALOG_WIDTH, SECRET_TEXTS } from './texts';
import { DialogActions } from '../../ui/DialogActions';

export interface EnvSecret {
  /** The environment variable's name (empty when the form asks for none). */
  name: string;
  key: string;
  /** `secret:KEY`, as forms show it. */
  path: string;
  /** `secret://CLUSTER/ORG/PROJECT/KEY`, as job specs carry it. */
  uri: string;
}

/**
 * "Add Environment Secret" of app and job forms: an environment variable fed from a secret.
 * Add is disabled until a secret is chosen and, when a name is required, a name typed.
 */
export function AddEnvSecretModal({
  scope,
  opened,
  onClose,
  onAdd,
  nameRequired = true,
}: {
  scope: ProjectPlace;
  opened: boolean;
  onClose: () => void;
  onAdd: (entry: EnvSecret) => void;
  nameRequired?: boolean;
}) {
  const [name, setName] = useState('');
  const [key, setKey] = useState<string | null>(null);
  const ready = !!key && (!nameRequired || name.trim().length > 0);
  const close = () => {
    setName('');
    setKey(null);
    onClose();
  };
  const add = () => {
    if (!key || !ready) return;
    onAdd({ name: name.trim(), key, path: secretPath(key), uri: secretFullUri(scope, key) });
    close();
  };
  return (
    <Modal opened={opened} onClose={close} title={SECRET_TEXTS.envTitle} size={SECRET_DIALOG_WIDTH}>
      <Stack>
        <TextInput
          label={SECRET_TEXTS.envNameLabel}
          placeholder={SECRET_TEXTS.envNamePlaceholder}
          required={nameRequired}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <SecretPicker scope={scope} value={key} onChange={setKey} />
        <DialogActions
          cancelLabel={SECRET_TEXTS.cancel}
          onCancel={close}
          confirmLabel={SECRET_TEXTS.envAdd}
          disabled={!ready}
          onClick={add}
        />
      </Stack>
    </Modal>
  );
}
