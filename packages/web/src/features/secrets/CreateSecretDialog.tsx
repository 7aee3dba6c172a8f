import type { ProjectPlace } from '@orrery/contract';
import { Modal } from '@mantine/core';

import { SecretForm } from './SecretForm';
import { SECRET_DIALOG_WIDTH, SECRET_TEXTS } from './texts';

export function CreateSecretDialog({
  scope,
  opened,
  onClose,
  onCreated,
}: {
  scope: ProjectPlace;
  opened: boolean;
  onClose: () => void;
  onCreated?: (key: string) => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={SECRET_TEXTS.createTitle}
      size={SECRET_DIALOG_WIDTH}
    >
      <SecretForm
        scope={scope}
        onCancel={onClose}
        onCreated={(key) => {
          onCreated?.(key);
          onClose();
        }}
      />
    </Modal>
  );
}
