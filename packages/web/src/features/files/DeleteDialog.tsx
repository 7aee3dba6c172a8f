import { useState } from 'react';
import { Modal, Stack, Text } from '@mantine/core';
import type { FileStatus } from '../../api/storage';
import { messageOf } from '../../ui/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { isFolder } from './paths';
import { DIALOG_WIDTH, FILE_TEXTS } from './texts';
import { DialogActions } from '../../ui/DialogActions';

const T = FILE_TEXTS.deleteDialog;

/** Deleting is always confirmed; a folder goes with everything in it (recursive). */
export function DeleteDialog(props: {
  entry: FileStatus;
  onDelete(entry: FileStatus): Promise<unknown>;
  onClose(): void;
}) {
  const [busy, setBusy] = useState(false);
  const { entry } = props;
  const confirm = async () => {
    setBusy(true);
    try {
      await props.onDelete(entry);
      notifySuccess(T.deleted(entry.path));
      props.onClose();
    } catch (error) {
      notifyError(messageOf(error, FILE_TEXTS.loadFailed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={props.onClose} title={T.title} size={DIALOG_WIDTH} centered>
      <Stack>
        <Text style={{ wordBreak: 'break-word' }}>
          {isFolder(entry) ? T.folderText(entry.path) : T.fileText(entry.path)}
        </Text>
        <DialogActions
          cancelLabel={FILE_TEXTS.cancel}
          onCancel={props.onClose}
          confirmLabel={T.submit}
          color="red"
          onClick={confirm}
          loading={busy}
        />
      </Stack>
    </Modal>
  );
}
