import type { ProjectPlace } from '@orrery/contract';
import { Modal, Stack, Text } from '@mantine/core';

import { useDeleteSecret } from '../../api/secrets';
import { messageOf } from '../../ui/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { SECRET_DIALOG_WIDTH, SECRET_TEXTS } from './texts';
import { DialogActions } from '../../ui/DialogActions';

/** Asks before deleting: jobs and apps that use the secret lose it. */
export function DeleteSecretDialog({
  scope,
  secretKey,
  onClose,
}: {
  scope: ProjectPlace;
  /** The key to delete; null keeps the dialog closed. */
  secretKey: string | null;
  onClose: () => void;
}) {
  const remove = useDeleteSecret();
  const confirm = () => {
    if (!secretKey) return;
    remove.mutate(
      { scope, key: secretKey },
      {
        onSuccess: () => {
          notifySuccess(SECRET_TEXTS.deleted);
          onClose();
        },
        onError: (error) => notifyError(messageOf(error, SECRET_TEXTS.somethingWentWrong)),
      },
    );
  };
  return (
    <Modal
      opened={secretKey !== null}
      onClose={onClose}
      title={SECRET_TEXTS.deleteTitle}
      size={SECRET_DIALOG_WIDTH}
    >
      <Stack>
        <Text>{SECRET_TEXTS.deleteConfirm(secretKey ?? '')}</Text>
        <DialogActions
          cancelLabel={SECRET_TEXTS.cancel}
          onCancel={onClose}
          confirmLabel={SECRET_TEXTS.delete}
          color="red"
          loading={remove.isPending}
          onClick={confirm}
        />
      </Stack>
    </Modal>
  );
}
