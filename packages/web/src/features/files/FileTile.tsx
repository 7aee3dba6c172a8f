import { Group, Paper, Text, UnstyledButton } from '@mantine/core';
import { IconArrowUp, IconFile, IconFolder, IconLink } from '@tabler/icons-react';
import type { FileStatus } from '../../api/storage';
import { isFolder } from './paths';
import { FILE_TEXTS } from './texts';

const ICON = { DIRECTORY: IconFolder, FILE: IconFile, SYMLINK: IconLink } as const;

function Tile(props: {
  label: string;
  icon: typeof IconFile;
  selected?: boolean;
  ariaLabel?: string;
  onClick(): void;
}) {
  const Icon = props.icon;
  return (
    <UnstyledButton
      onClick={props.onClick}
      aria-pressed={props.selected ?? undefined}
      aria-label={props.ariaLabel}
      title={props.label}
    >
      <Paper
        withBorder
        p="sm"
        radius="md"
        bg={props.selected ? 'var(--mantine-primary-color-light)' : undefined}
        style={{ borderColor: props.selected ? 'var(--mantine-primary-color-filled)' : undefined }}
      >
        <Group gap="sm" wrap="nowrap">
          <Icon size={22} stroke={1.5} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm" truncate>
            {props.label}
          </Text>
        </Group>
      </Paper>
    </UnstyledButton>
  );
}

/** A file or folder of the listing; clicks are counted by the caller (useClickCount). */
export function FileTile(props: { entry: FileStatus; selected: boolean; onClick(): void }) {
  const { entry } = props;
  return (
    <Tile
      label={entry.path}
      icon={ICON[entry.type]}
      selected={props.selected}
      ariaLabel={`${isFolder(entry) ? FILE_TEXTS.folder : FILE_TEXTS.file} ${entry.path}`}
      onClick={props.onClick}
    />
  );
}

/** The folder-up tile: one click goes to the parent folder. */
export function FolderUpTile({ onClick }: { onClick(): void }) {
  return <Tile label=".." icon={IconArrowUp} ariaLabel={FILE_TEXTS.upLabel} onClick={onClick} />;
}
