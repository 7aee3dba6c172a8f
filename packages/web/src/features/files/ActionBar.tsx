import { ActionIcon, Button, Group, Paper, Text } from '@mantine/core';
import {
  IconDownload,
  IconEdit,
  IconExternalLink,
  IconShare,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import type { Can } from '../../api/permissions';
import type { FileStatus } from '../../api/storage';
import { WhyNot } from '../../ui/WhyNot';
import { isFolder } from './paths';
import { FILE_TEXTS } from './texts';

const T = FILE_TEXTS.actions;

/**
 * The bottom bar of the selected item: share, open in new tab and download (files
 * only), rename and delete; an area leaves out what it cannot do. Changes need `write` on the
 * item, sharing `manage`: the permission engine's answers, refused ones disabled with the reason.
 */
export function ActionBar(props: {
  entry: FileStatus;
  openUrl: string;
  downloadUrl?: string;
  onShare?(): void;
  onRename?(): void;
  onDelete(): void;
  write: Can;
  /** Sharing: `manage` on the item. */
  manage?: Can;
  onClear(): void;
}) {
  const { entry } = props;
  return (
    <Paper withBorder shadow="md" p="sm" role="toolbar" aria-label={T.label}>
      {/* Beside the open drawer the bar is narrow: buttons wrap rather than lose their labels. */}
      <Group gap="xs">
        <ActionIcon variant="subtle" color="gray" aria-label={T.close} onClick={props.onClear}>
          <IconX size={16} />
        </ActionIcon>
        <Text size="sm" fw={600} truncate maw={240}>
          {entry.path}
        </Text>
        {props.onShare && props.manage && (
          <WhyNot can={props.manage}>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconShare size={14} />}
              onClick={props.onShare}
            >
              {T.share}
            </Button>
          </WhyNot>
        )}
        {!isFolder(entry) && (
          <Button
            size="xs"
            variant="default"
            component="a"
            href={props.openUrl}
            target="_blank"
            rel="noopener noreferrer"
            leftSection={<IconExternalLink size={14} />}
          >
            {T.open}
          </Button>
        )}
        {!isFolder(entry) && props.downloadUrl && (
          <Button
            size="xs"
            variant="default"
            component="a"
            href={props.downloadUrl}
            download={entry.path}
            leftSection={<IconDownload size={14} />}
          >
            {T.download}
          </Button>
        )}
        {props.onRename && (
          <WhyNot can={props.write}>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconEdit size={14} />}
              onClick={props.onRename}
            >
              {T.rename}
            </Button>
          </WhyNot>
        )}
        <WhyNot can={props.write}>
          <Button
            size="xs"
            color="red"
            variant="light"
            leftSection={<IconTrash size={14} />}
            onClick={props.onDelete}
          >
            {T.delete}
          </Button>
        </WhyNot>
      </Group>
    </Paper>
  );
}
