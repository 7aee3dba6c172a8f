import { Box, Drawer, Stack } from '@mantine/core';
import { useElementSize, useMediaQuery } from '@mantine/hooks';
import { DetailsTable } from '../../ui/DetailsTable';
import type { ReactNode } from 'react';
import type { FileStatus } from '../../api/storage';
import { formatSize } from '../../ui/sizes';
import { FilePreview } from './FilePreview';
import { extensionOf, formatModified, isFolder } from './paths';
import { FILE_TEXTS } from './texts';

const T = FILE_TEXTS.drawer;

/** The drawer's width; while it is open the page keeps this much free on its right. */
export const FILE_DRAWER_WIDTH = 440;

/**
 * The part of a file-manager page that must stay in reach beside the open drawer (toolbar, tiles,
 * action bar): without the reserved space the drawer hid their right side, Delete and Upload
 * included, on a 1280 px wide window. Below `md` too little would be left beside the drawer and
 * the navbar, so there the drawer covers the page as before.
 */
export function BesideFileDrawer({ open, children }: { open: boolean; children: ReactNode }) {
  return (
    <Stack gap="md" pr={open ? { base: 0, md: FILE_DRAWER_WIDTH } : 0}>
      {children}
    </Stack>
  );
}

/**
 * The selected item's action bar and the uploads, docked at the bottom of the window (left of the
 * open drawer), however short the listing: below a short one they floated mid-page. A spacer of
 * the dock's height keeps the end of a long listing clear of it.
 */
export function BottomDock({ drawerOpen, children }: { drawerOpen: boolean; children: ReactNode }) {
  const { ref, height } = useElementSize();
  // From `md` the page keeps the drawer's width free (BesideFileDrawer); below, the drawer covers it.
  const beside = useMediaQuery('(min-width: 62em)') && drawerOpen;
  const gap = 'var(--mantine-spacing-md)';
  return (
    <>
      <Box h={height} aria-hidden />
      <Stack
        ref={ref}
        gap="sm"
        pos="fixed"
        bottom={16}
        style={{
          left: `calc(var(--app-shell-navbar-offset, 0rem) + ${gap})`,
          right: beside ? `calc(${FILE_DRAWER_WIDTH}px + ${gap})` : gap,
          zIndex: 10,
        }}
      >
        {children}
      </Stack>
    </>
  );
}

/**
 * Details of the selected item: preview, Saved in, Extension, Modified and size.
 * It leaves the page usable (no overlay, no focus trap) so the action bar stays in reach.
 */
export function FileDrawer(props: {
  entry: FileStatus | null;
  /** Where the item is, as the area names places (`storage:a/b`, `bucket/a/b/`). */
  savedIn: string;
  openUrl: string | null;
  onClose(): void;
}) {
  const { entry } = props;
  const rows: [string, ReactNode][] = entry
    ? [
        [T.savedIn, props.savedIn],
        [T.type, isFolder(entry) ? FILE_TEXTS.folder : FILE_TEXTS.file],
        [T.extension, (!isFolder(entry) && extensionOf(entry.path)) || T.noExtension],
        // A bucket's folder is only a key prefix: it has no time (0) to show.
        ...(entry.modificationTime > 0
          ? [[T.modified, formatModified(entry.modificationTime)] as [string, ReactNode]]
          : []),
        ...(isFolder(entry) ? [] : [[T.size, formatSize(entry.length)] as [string, ReactNode]]),
      ]
    : [];
  return (
    <Drawer
      opened={!!entry}
      onClose={props.onClose}
      position="right"
      size={FILE_DRAWER_WIDTH}
      title={entry?.path}
      withOverlay={false}
      trapFocus={false}
      lockScroll={false}
      closeOnClickOutside={false}
      shadow="md"
      styles={{ title: { wordBreak: 'break-all', fontWeight: 600 } }}
    >
      <Stack>
        {entry && !isFolder(entry) && props.openUrl && (
          <FilePreview
            key={props.openUrl}
            name={entry.path}
            url={props.openUrl}
            size={entry.length}
          />
        )}
        <DetailsTable rows={rows} />
      </Stack>
    </Drawer>
  );
}
