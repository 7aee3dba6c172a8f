import { useState } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import type { SecretScope } from '../../api/secrets';
import { SecretPicker } from './SecretPicker';
import { secretFullUri, secretPath } from './scope';
import { SECRET_DIALOG_WIDTH, SECRET_TEXTS } from './texts';

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
  scope: SecretScope;
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
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {SECRET_TEXTS.cancel}
          </Button>
          <Button disabled={!key} onClick={apply}>
            {SECRET_TEXTS.pathApply}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
