import { Fragment, type ReactNode } from 'react';
import type { QueryKey } from '@tanstack/react-query';
import type { Can } from '../../api/permissions';
import type { FileStatus } from '../../api/storage';
import { BesideFileDrawer, BottomDock, FileDrawer } from './FileDrawer';
import { FilesToolbar } from './FilesToolbar';
import { FolderBreadcrumbs } from './FolderBreadcrumbs';
import { FolderBody, useFolderBrowsing } from './FolderBody';
import { UploadList } from './UploadList';
import { useFolderPath } from './useFolderPath';
import { useStorageToken } from './useStorageToken';
import { useUploads, type Uploader } from './useUploads';

export { useFolderBrowsing };

/** What a page's folder view is given by `FolderPages` for the folder in view. */
export interface OpenFolder {
  path: string[];
  go(path: string[]): void;
  /** The storage token that links to files carry (useStorageToken). */
  token: string | null;
  onUpload(files: File[]): void;
  /** The panel of the open folder's uploads, shown below the listing. */
  uploads: ReactNode;
}

/**
 * The pages of a folder browser (the Files area, a bucket): the open folder from `?path=`, the
 * uploads, which outlive a change of folder, and the folder view, mounted afresh for each folder
 * so that its search, selection and dialogs are that folder's.
 */
export function FolderPages(props: {
  upload(
    folder: string[],
    file: File,
    options: Parameters<Uploader>[2],
    token: string | null,
  ): Promise<unknown>;
  /** The queries refetched when an upload has finished. */
  refresh: QueryKey;
  children(folder: OpenFolder): ReactNode;
}) {
  const [path, go] = useFolderPath();
  const token = useStorageToken();
  const uploads = useUploads(
    (folder, file, options) => props.upload(folder, file, options, token),
    props.refresh,
  );
  return (
    <Fragment key={path.join('/')}>
      {props.children({
        path,
        go,
        token,
        onUpload: (files) => uploads.start(files, path),
        uploads: (
          <UploadList
            uploads={uploads.inFolder(path)}
            onCancel={uploads.cancel}
            onDismiss={uploads.dismiss}
          />
        ),
      })}
    </Fragment>
  );
}

/**
 * One folder of a folder browser: breadcrumbs from `root`, search, add folder and upload, the
 * tiles with their loading, error, empty and no-match states, the selected item's action bar and
 * its details drawer. The area brings its listing, its permission answers, its texts and its
 * actions; the dialogs those actions open are the area's too.
 */
export function FolderBrowser(props: {
  folder: OpenFolder;
  browsing: ReturnType<typeof useFolderBrowsing>;
  /** The first breadcrumb: what the area's root is called. */
  root: string;
  query: { isPending: boolean; isError: boolean; error: unknown };
  entries: FileStatus[];
  /** The selected entry, found among `entries`. */
  entry: FileStatus | null;
  /** Adding to the folder (add folder, upload, drop): the permission engine's answer. */
  write: Can;
  texts: { loading: string; loadFailed: string; empty: string; emptyHint: string };
  onAddFolder(): void;
  /** The selected entry's action bar. */
  actions: ReactNode;
  /** Where the selected entry is, as the area names places, and its link. */
  savedIn: string;
  openUrl: string | null;
  /** Below the tiles (e.g. "Load more"). */
  more?: ReactNode;
  /** The area's dialogs. */
  dialogs: ReactNode;
}) {
  const { folder, browsing } = props;
  const { path, go } = folder;
  return (
    <>
      <BesideFileDrawer open={!!props.entry}>
        <FolderBreadcrumbs path={path} root={props.root} onGo={go} />
        <FilesToolbar
          search={browsing.search}
          write={props.write}
          onSearch={browsing.setSearch}
          onAddFolder={props.onAddFolder}
          onUpload={folder.onUpload}
        />
        <FolderBody
          query={props.query}
          loadingLabel={props.texts.loading}
          loadFailed={props.texts.loadFailed}
          entries={props.entries}
          browsing={browsing}
          path={path}
          go={go}
          readOnly={!props.write.allowed}
          emptyTitle={props.texts.empty}
          emptyDescription={props.texts.emptyHint}
          onUpload={folder.onUpload}
        >
          {props.more}
        </FolderBody>
        <BottomDock drawerOpen={!!props.entry}>
          {props.entry && props.actions}
          {folder.uploads}
        </BottomDock>
      </BesideFileDrawer>
      <FileDrawer
        entry={props.entry}
        savedIn={props.savedIn}
        openUrl={props.openUrl}
        onClose={() => browsing.setSelected(null)}
      />
      {props.dialogs}
    </>
  );
}
