import { useState, type DragEvent, type ReactNode } from 'react';
import { Box, Center, Overlay, SimpleGrid, Text } from '@mantine/core';
import type { FileStatus } from '../../api/storage';
import { FileTile, FolderUpTile } from './FileTile';
import { FILE_TEXTS } from './texts';

const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');

/**
 * The folder's tiles: the folder-up tile first (below the root), then folders and files. Files
 * dropped onto it are uploaded to the open folder, unless the folder is read-only.
 */
export function FileGrid(props: {
  entries: FileStatus[];
  selected: string | null;
  showUp: boolean;
  canDrop: boolean;
  empty?: ReactNode;
  onUp(): void;
  onClick(entry: FileStatus): void;
  onDropFiles(files: File[]): void;
}) {
  const [dragging, setDragging] = useState(false);
  const over = (e: DragEvent) => {
    if (!props.canDrop || !hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const drop = (e: DragEvent) => {
    if (!props.canDrop) return;
    e.preventDefault();
    setDragging(false);
    const files = Array.from(e.dataTransfer?.files ?? []);
    if (files.length > 0) props.onDropFiles(files);
  };
  return (
    <Box
      pos="relative"
      mih={160}
      data-testid="file-drop-zone"
      onDragEnter={over}
      onDragOver={over}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={drop}
    >
      {dragging && (
        <Overlay color="var(--mantine-primary-color-light)" backgroundOpacity={0.9} radius="md">
          <Center h="100%">
            <Text fw={600}>{FILE_TEXTS.dropHere}</Text>
          </Center>
        </Overlay>
      )}
      {/* Columns follow the grid's own width, which the open details drawer narrows. */}
      <SimpleGrid
        type="container"
        cols={{ base: 1, '400px': 2, '600px': 3, '860px': 4 }}
        spacing="sm"
      >
        {props.showUp && <FolderUpTile onClick={props.onUp} />}
        {props.entries.map((entry) => (
          <FileTile
            key={entry.path}
            entry={entry}
            selected={props.selected === entry.path}
            onClick={() => props.onClick(entry)}
          />
        ))}
      </SimpleGrid>
      {props.entries.length === 0 && props.empty}
    </Box>
  );
}
