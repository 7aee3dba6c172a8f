import { useState, type ReactNode } from 'react';
import { Alert, Loader } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFolderOpen } from '@tabler/icons-react';
import type { FileStatus } from '../../api/storage';
import { EmptyState } from '../../ui/EmptyState';
import { messageOf } from '../../ui/errors';
import { FileGrid } from './FileGrid';
import { filterEntries, isFolder } from './paths';
import { SEARCH_DEBOUNCE_MS, FILE_TEXTS } from './texts';
import { useClickCount } from './useClickCount';

/**
 * What a folder view keeps while it is open: the search (debounced), the selected entry, and
 * clicks counted so that one selects and two within 200 ms open a folder.
 */
export function useFolderBrowsing(path: string[], go: (path: string[]) => void) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [selected, setSelected] = useState<string | null>(null);
  const select = (e: FileStatus) => setSelected(e.path);
  const onClick = useClickCount<FileStatus>(select, (e) =>
    isFolder(e) ? go([...path, e.path]) : select(e),
  );
  return { search, setSearch, debounced, selected, setSelected, onClick };
}

/**
 * The listing of a folder of the files area or of a bucket: loading, error, empty and no-match
 * states, then the grid with its folder-up tile and drop zone.
 */
export function FolderBody(props: {
  query: { isPending: boolean; isError: boolean; error: unknown };
  loadingLabel: string;
  loadFailed: string;
  entries: FileStatus[];
  browsing: ReturnType<typeof useFolderBrowsing>;
  path: string[];
  go(path: string[]): void;
  readOnly: boolean;
  emptyTitle: string;
  emptyDescription: string;
  onUpload(files: File[]): void;
  /** Below the grid (e.g. "Load more"). */
  children?: ReactNode;
}) {
  const { query, browsing, path } = props;
  if (query.isPending) return <Loader aria-label={props.loadingLabel} />;
  if (query.isError) return <Alert color="red">{messageOf(query.error, props.loadFailed)}</Alert>;
  const shown = filterEntries(props.entries, browsing.debounced);
  const empty =
    props.entries.length === 0 ? (
      <EmptyState
        icon={<IconFolderOpen size={24} />}
        title={props.emptyTitle}
        description={props.emptyDescription}
      />
    ) : shown.length === 0 ? (
      <EmptyState title={FILE_TEXTS.noMatches(browsing.debounced.trim())} />
    ) : null;
  return (
    <>
      <FileGrid
        entries={shown}
        selected={browsing.selected}
        showUp={path.length > 0}
        canDrop={!props.readOnly}
        empty={empty}
        onUp={() => props.go(path.slice(0, -1))}
        onClick={browsing.onClick}
        onDropFiles={props.onUpload}
      />
      {props.children}
    </>
  );
}
