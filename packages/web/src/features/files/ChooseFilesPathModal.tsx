import type { ProjectPlace } from '@orrery/contract';
import { useState } from 'react';
import { Alert, Button, Code, Group, Loader, Modal, ScrollArea, Stack } from '@mantine/core';
import { useListing, type FileStatus } from '../../api/storage';
import { EmptyState } from '../../ui/EmptyState';
import { messageOf } from '../../ui/errors';
import { FileGrid } from './FileGrid';
import { FolderBreadcrumbs } from './FolderBreadcrumbs';
import { filterEntries, fullUri, isFolder, storageValue } from './paths';
import { CHOOSER_WIDTH, FILE_TEXTS } from './texts';
import { useClickCount } from './useClickCount';

const T = FILE_TEXTS.chooser;

export interface ChosenFilesPath {
  /** Project-relative segments; `[]` is the project's root. */
  segments: string[];
  /** `storage:a/b`, the value forms store. */
  path: string;
  /** `storage://CLUSTER/ORG/PROJECT/a/b`. */
  uri: string;
}

export const chosenPath = (place: ProjectPlace, segments: string[]): ChosenFilesPath => ({
  segments,
  path: storageValue(segments),
  uri: fullUri(place, segments),
});

/**
 * "Choose a Files Path" of job and app forms: browse the project's files; one
 * click selects an item, a double click (200 ms window) enters a folder. Select returns the
 * selected item, or the open folder when nothing is selected.
 */
export function ChooseFilesPathModal(props: {
  place: ProjectPlace;
  opened: boolean;
  initialPath?: string[];
  onClose(): void;
  onChoose(chosen: ChosenFilesPath): void;
}) {
  const [folder, setFolder] = useState<string[]>(props.initialPath ?? []);
  const [selected, setSelected] = useState<string | null>(null);
  const listing = useListing(props.place, folder, props.opened);
  const enter = (next: string[]) => {
    setFolder(next);
    setSelected(null);
  };
  const countClick = useClickCount<FileStatus>(
    (e) => setSelected(e.path),
    (e) => (isFolder(e) ? enter([...folder, e.path]) : setSelected(e.path)),
  );
  const target = selected === null ? folder : [...folder, selected];
  const choose = () => {
    props.onChoose(chosenPath(props.place, target));
    props.onClose();
  };

  return (
    <Modal opened={props.opened} onClose={props.onClose} title={T.title} size={CHOOSER_WIDTH}>
      <Stack>
        <FolderBreadcrumbs path={folder} root={props.place.projectName} onGo={enter} />
        <ScrollArea.Autosize mah={400}>
          {listing.isPending ? (
            <Loader aria-label={T.title} />
          ) : listing.isError ? (
            <Alert color="red">{messageOf(listing.error, FILE_TEXTS.loadFailed)}</Alert>
          ) : (
            <FileGrid
              entries={filterEntries(listing.data, '')}
              selected={selected}
              showUp={folder.length > 0}
              canDrop={false}
              empty={<EmptyState title={T.empty} />}
              onUp={() => enter(folder.slice(0, -1))}
              onClick={countClick}
              onDropFiles={() => {}}
            />
          )}
        </ScrollArea.Autosize>
        <Group justify="space-between" wrap="nowrap">
          <Code>{storageValue(target)}</Code>
          <Group gap="sm" wrap="nowrap">
            <Button variant="default" onClick={props.onClose}>
              {T.cancel}
            </Button>
            <Button onClick={choose}>{selected === null ? T.current : T.select}</Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
