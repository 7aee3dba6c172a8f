import type { ReactNode } from 'react';
import { Modal, Stack, Text, type ModalProps } from '@mantine/core';
import { DialogActions } from './DialogActions';
import { withOutcome } from './notify';

/**
 * The one confirmation before an action that loses something (delete, remove, uninstall): the
 * question, Cancel and the red confirming button. The action's outcome is told (its success
 * text, or the server's message) and the dialog closes only when it worked.
 */
export function ConfirmDialog(props: {
  opened: boolean;
  title: string;
  text: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  pending: boolean;
  /** The action; resolves once done, rejects with the server's error. */
  onConfirm(): Promise<unknown>;
  success: string;
  /** Said when the server's error has no message of its own. */
  failure: string;
  onClose(): void;
  onDone?(): void;
  size?: ModalProps['size'];
}) {
  const confirm = async () => {
    if (await withOutcome(props.onConfirm, props.success, props.failure)) {
      props.onDone?.();
      props.onClose();
    }
  };
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.title}
      size={props.size}
      centered
    >
      <Stack>
        <Text>{props.text}</Text>
        <DialogActions
          cancelLabel={props.cancelLabel}
          onCancel={props.onClose}
          confirmLabel={props.confirmLabel}
          color="red"
          onClick={() => void confirm()}
          loading={props.pending}
        />
      </Stack>
    </Modal>
  );
}
