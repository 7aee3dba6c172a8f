import { ActionIcon, Anchor, Breadcrumbs, Group, Text, Tooltip } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { FILE_TEXTS } from './texts';

/** The home button and the path of the open folder; every part but the last opens its folder. */
export function FolderBreadcrumbs(props: {
  path: string[];
  root: string;
  onGo(path: string[]): void;
}) {
  const parts = [props.root, ...props.path];
  return (
    <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
      <Tooltip label={FILE_TEXTS.home} openDelay={300}>
        <ActionIcon variant="default" aria-label={FILE_TEXTS.home} onClick={() => props.onGo([])}>
          <IconHome size={16} />
        </ActionIcon>
      </Tooltip>
      <Breadcrumbs separatorMargin={4} style={{ flexWrap: 'wrap' }} aria-label="Breadcrumbs">
        {parts.map((part, i) =>
          i === parts.length - 1 ? (
            <Text key={i} size="sm" fw={600} aria-current="page">
              {part}
            </Text>
          ) : (
            <Anchor
              key={i}
              size="sm"
              component="button"
              type="button"
              onClick={() => props.onGo(props.path.slice(0, i))}
            >
              {part}
            </Anchor>
          ),
        )}
      </Breadcrumbs>
    </Group>
  );
}
