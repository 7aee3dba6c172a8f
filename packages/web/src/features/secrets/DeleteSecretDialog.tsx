import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { SecretScope } from '../../api/secrets';
import { useDeleteSecret } from '../../api/secrets';
import { messageOf } from '../../ui/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { SECRET_DIALOG_WIDTH, SECRET_TEXTS } from './texts';

/** Asks before deleting: jobs and apps that use the secret lose it. */
export function DeleteSecretDialog({
  scope,
  secretKey,
  onClose,
}: {
  scope: SecretScope;
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
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {SECRET_TEXTS.cancel}
          </Button>
          <Button color="red" loading={remove.isPending} onClick={confirm}>
            {SECRET_TEXTS.delete}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
