import type { ProjectPlace } from '@orrery/contract';
import { useDeleteSecret } from '../../api/secrets';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { SECRET_DIALOG_WIDTH, SECRET_TEXTS } from './texts';

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
  return (
    <ConfirmDialog
      opened={secretKey !== null}
      title={SECRET_TEXTS.deleteTitle}
      text={SECRET_TEXTS.deleteConfirm(secretKey ?? '')}
      cancelLabel={SECRET_TEXTS.cancel}
      confirmLabel={SECRET_TEXTS.delete}
      pending={remove.isPending}
      onConfirm={() => remove.mutateAsync({ scope, key: secretKey! })}
      success={SECRET_TEXTS.deleted}
      failure={SECRET_TEXTS.somethingWentWrong}
      onClose={onClose}
      size={SECRET_DIALOG_WIDTH}
    />
  );
}
