import type { ProjectPlace } from '@orrery/contract';
import { useState, type ReactNode } from 'react';
import { Stack, Title } from '@mantine/core';

import { openUrl, storageKeys, uploadFile, useListing } from '../../api/storage';
import { useCan } from '../../api/permissions';
import { useProjectUri } from '../../api/project-can';
import { ActionBar } from './ActionBar';
import { FileDialogs, type FileDialog } from './FileDialogs';
import { BesideFileDrawer, FileDrawer } from './FileDrawer';
import { FilesToolbar } from './FilesToolbar';
import { FolderBreadcrumbs } from './FolderBreadcrumbs';
import { FolderBody, useFolderBrowsing } from './FolderBody';
import { storageValue } from './paths';
import { FILE_TEXTS as T } from './texts';
import { UploadList } from './UploadList';
import { useFolderPath } from './useFolderPath';
import { useStorageToken } from './useStorageToken';
import { useUploads } from './useUploads';
import { NeedsProject } from '../../app/context/project-place';

/** The Files area: the current project's storage, one folder at a time. */
export default function FilesPage() {
  return (
    <NeedsProject title={T.title} description={T.missingProject}>
      {(place) => <Files place={place} />}
    </NeedsProject>
  );
}

function Files({ place }: { place: ProjectPlace }) {
  const [path, go] = useFolderPath();
  const token = useStorageToken();
  // Uploads outlive a change of folder (the panel shows the open folder's); the rest is the folder's.
  const uploads = useUploads(
    (folder, file, options) =>
      uploadFile(place, [...folder, file.name], file, { ...options, token }),
    storageKeys.all(place),
  );
  return (
    <Stack gap="md">
      <Title order={2}>{T.title}</Title>
      <Folder
        key={path.join('/')}
        place={place}
        path={path}
        token={token}
        go={go}
        onUpload={(files) => uploads.start(files, path)}
      >
        <UploadList
          uploads={uploads.inFolder(path)}
          onCancel={uploads.cancel}
          onDismiss={uploads.dismiss}
        />
      </Folder>
    </Stack>
  );
}

function Folder(props: {
  place: ProjectPlace;
  path: string[];
  token: string | null;
  go(path: string[]): void;
  onUpload(files: File[]): void;
  /** The uploads, kept beside the drawer like the rest of the page. */
  children?: ReactNode;
}) {
  const { place, path, go } = props;
  const listing = useListing(place, path);
  const browsing = useFolderBrowsing(path, go);
  const { selected, setSelected } = browsing;
  const [dialog, setDialog] = useState<FileDialog>(null);
  const entries = listing.data ?? [];
  const entry = entries.find((e) => e.path === selected) ?? null;
  // The permission engine's answers for the folder and the selected item (`storage://…/path`):
  // until the folder's is known, nothing may be added to it.
  const uri = useProjectUri();
  const item = entry && [...path, entry.path];
  const [write, writeItem, manageItem] = useCan([
    uri && { uri: uri('storage', ...path), action: 'write' },
    uri && item && { uri: uri('storage', ...item), action: 'write' },
    uri && item && { uri: uri('storage', ...item), action: 'manage' },
  ]);
  const readOnly = !write.allowed;
  const link = entry ? openUrl(place, [...path, entry.path], props.token) : null;
  return (
    <>
      <BesideFileDrawer open={!!entry}>
        <FolderBreadcrumbs path={path} root={place.projectName} onGo={go} />
        <FilesToolbar
          search={browsing.search}
          write={write}
          onSearch={browsing.setSearch}
          onAddFolder={() => setDialog('add')}
          onUpload={props.onUpload}
        />
        <FolderBody
          query={listing}
          loadingLabel={T.title}
          loadFailed={T.loadFailed}
          entries={entries}
          browsing={browsing}
          path={path}
          go={go}
          readOnly={readOnly}
          emptyTitle={T.empty}
          emptyDescription={readOnly ? T.emptyReadOnly : T.emptyHint}
          onUpload={props.onUpload}
        />
        {entry && link && (
          <ActionBar
            entry={entry}
            openUrl={link}
            write={writeItem}
            manage={manageItem}
            onShare={() => setDialog('share')}
            onRename={() => setDialog('rename')}
            onDelete={() => setDialog('delete')}
            onClear={() => setSelected(null)}
          />
        )}
        {props.children}
      </BesideFileDrawer>
      <FileDrawer
        entry={entry}
        savedIn={storageValue(path)}
        openUrl={link}
        onClose={() => setSelected(null)}
      />
      <FileDialogs
        place={place}
        folder={path}
        dialog={dialog}
        entry={entry}
        onClose={() => setDialog(null)}
        onRenamed={setSelected}
        onDeleted={() => setSelected(null)}
      />
    </>
  );
}
