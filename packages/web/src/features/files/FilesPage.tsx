import type { ProjectPlace } from '@orrery/contract';
import { useState } from 'react';
import { Stack, Title } from '@mantine/core';

import { openUrl, storageKeys, uploadFile, useListing } from '../../api/storage';
import { useCan } from '../../api/permissions';
import { useProjectUri } from '../../api/project-can';
import { ActionBar } from './ActionBar';
import { FileDialogs, type FileDialog } from './FileDialogs';
import { FolderBrowser, FolderPages, useFolderBrowsing, type OpenFolder } from './FolderBrowser';
import { storageValue } from './paths';
import { FILE_TEXTS as T } from './texts';
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
  return (
    <Stack gap="md">
      <Title order={2}>{T.title}</Title>
      <FolderPages
        upload={(folder, file, options, token) =>
          uploadFile(place, [...folder, file.name], file, { ...options, token })
        }
        refresh={storageKeys.all(place)}
      >
        {(folder) => <Folder place={place} folder={folder} />}
      </FolderPages>
    </Stack>
  );
}

function Folder({ place, folder }: { place: ProjectPlace; folder: OpenFolder }) {
  const { path, go } = folder;
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
  const link = entry ? openUrl(place, [...path, entry.path], folder.token) : null;
  return (
    <FolderBrowser
      folder={folder}
      browsing={browsing}
      root={place.projectName}
      query={listing}
      entries={entries}
      entry={entry}
      write={write}
      texts={{
        loading: T.title,
        loadFailed: T.loadFailed,
        empty: T.empty,
        emptyHint: write.allowed ? T.emptyHint : T.emptyReadOnly,
      }}
      onAddFolder={() => setDialog('add')}
      actions={
        entry &&
        link && (
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
        )
      }
      savedIn={storageValue(path)}
      openUrl={link}
      dialogs={
        <FileDialogs
          place={place}
          folder={path}
          dialog={dialog}
          entry={entry}
          onClose={() => setDialog(null)}
          onRenamed={setSelected}
          onDeleted={() => setSelected(null)}
        />
      }
    />
  );
}
