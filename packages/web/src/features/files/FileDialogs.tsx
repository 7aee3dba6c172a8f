import type { ProjectPlace } from '@orrery/contract';
import type { FileStatus } from '../../api/storage';
import { deletePath, makeDirs, renamePath, useStorageMutation } from '../../api/storage';
import { notifySuccess } from '../../ui/notify';
import { DeleteDialog } from './DeleteDialog';
import { NameDialog } from './NameDialog';
import { fullUri, isFolder } from './paths';
import { ShareDialog } from './ShareDialog';
import { FILE_TEXTS } from './texts';

export type FileDialog = 'add' | 'rename' | 'delete' | 'share' | null;

/** The dialogs of the Files page, one at a time, each mounted fresh when it opens. */
export function FileDialogs(props: {
  place: ProjectPlace;
  folder: string[];
  dialog: FileDialog;
  entry: FileStatus | null;
  onClose(): void;
  onRenamed(name: string): void;
  onDeleted(): void;
}) {
  const { place, folder, entry } = props;
  const mkdir = useStorageMutation(place, (name: string) => makeDirs(place, [...folder, name]));
  const rename = useStorageMutation(place, (v: { from: string; to: string }) =>
    renamePath(place, [...folder, v.from], [...folder, v.to]),
  );
  const remove = useStorageMutation(place, (e: FileStatus) =>
    deletePath(place, [...folder, e.path], isFolder(e)),
  );

  if (props.dialog === 'add') {
    const T = FILE_TEXTS.addFolderDialog;
    return (
      <NameDialog
        title={T.title}
        label={T.name}
        submit={T.submit}
        onClose={props.onClose}
        onSubmit={async (name) => {
          await mkdir.mutateAsync(name);
          notifySuccess(T.created(name));
        }}
      />
    );
  }
  if (!entry) return null;
  if (props.dialog === 'rename') {
    const T = FILE_TEXTS.renameDialog;
    return (
      <NameDialog
        title={T.title}
        label={T.name}
        submit={T.submit}
        initial={entry.path}
        onClose={props.onClose}
        onSubmit={async (name) => {
          if (name === entry.path) return;
          await rename.mutateAsync({ from: entry.path, to: name });
          notifySuccess(T.renamed(entry.path, name));
          props.onRenamed(name);
        }}
      />
    );
  }
  if (props.dialog === 'delete') {
    return (
      <DeleteDialog
        entry={entry}
        onClose={props.onClose}
        onDelete={async (e) => {
          await remove.mutateAsync(e);
          props.onDeleted();
        }}
      />
    );
  }
  if (props.dialog === 'share') {
    return (
      <ShareDialog
        name={entry.path}
        uri={fullUri(place, [...folder, entry.path])}
        onClose={props.onClose}
      />
    );
  }
  return null;
}
