import { useState } from 'react';
import type { FileStatus } from '../../api/storage';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { isFolder } from './paths';
import { DIALOG_WIDTH, FILE_TEXTS } from './texts';

const T = FILE_TEXTS.deleteDialog;

/** Deleting is always confirmed; a folder goes with everything in it (recursive). */
export function DeleteDialog(props: {
  entry: FileStatus;
  onDelete(entry: FileStatus): Promise<unknown>;
  onClose(): void;
}) {
  const [busy, setBusy] = useState(false);
  const { entry } = props;
  const remove = async () => {
    setBusy(true);
    try {
      await props.onDelete(entry);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      opened
      title={T.title}
      text={
        <span style={{ wordBreak: 'break-word' }}>
          {isFolder(entry) ? T.folderText(entry.path) : T.fileText(entry.path)}
        </span>
      }
      cancelLabel={FILE_TEXTS.cancel}
      confirmLabel={T.submit}
      pending={busy}
      onConfirm={remove}
      success={T.deleted(entry.path)}
      failure={FILE_TEXTS.loadFailed}
      onClose={props.onClose}
      size={DIALOG_WIDTH}
    />
  );
}
