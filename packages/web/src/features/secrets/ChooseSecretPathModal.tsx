import type { ProjectPlace } from '@orrery/contract';
import { useState } from 'react';
import { Modal, Stack } from '@mantine/core';

import { SecretPicker } from './SecretPicker';
import { secretFullUri, secretPath } from './scope';
import { SECRET_DIALOG_WIDTH, SECRET_TEXTS } from './texts';
import { DialogActions } from '../../ui/DialogActions';

export interface ChosenSecretPath {
  key: string;
  /** `secret:KEY`, as forms show it. */
  path: string;
  /** `secret://CLUSTER/ORG/PROJECT/KEY`. */
  uri: string;
}

/** "Choose a Secret Path" of app and job forms, e.g. for a secret volume. */
export function ChooseSecretPathModal({
  scope,
  opened,
  onClose,
  onApply,
  initialKey = null,
}: {
  scope: ProjectPlace;
  opened: boolean;
  onClose: () => void;
  onApply: (chosen: ChosenSecretPath) => void;
  initialKey?: string | null;
}) {
  const [key, setKey] = useState<string | null>(initialKey);
  const apply = () => {
    if (!key) return;
    onApply({ key, path: secretPath(key), uri: secretFullUri(scope, key) });
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={SECRET_TEXTS.pathTitle}
      size={SECRET_DIALOG_WIDTH}
    >
      <Stack>
        <SecretPicker scope={scope} value={key} onChange={setKey} />
        <DialogActions
          cancelLabel={SECRET_TEXTS.cancel}
          onCancel={onClose}
          confirmLabel={SECRET_TEXTS.pathApply}
          disabled={!key}
          onClick={apply}
        />
      </Stack>
    </Modal>
  );
}
