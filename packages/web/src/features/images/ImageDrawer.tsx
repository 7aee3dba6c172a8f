import type { ProjectPlace } from '@orrery/contract';
import { IconTag } from '@tabler/icons-react';
import { Alert, Code, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { DataTable } from '../../ui/DataTable';
import { useImageDetails, type ImageRepo } from '../../api/images';
import { messageOf } from '../../ui/errors';
import { formatSize } from '../../ui/sizes';
import { CopyAction } from './CopyAction';
import { formatDate } from './format';
import { IMAGE_TEXTS } from './texts';

const T = IMAGE_TEXTS.drawer;

/** The drawer: tags, image name, created, size; copy a tag or the image with a tag. */
export function ImageDrawer(props: {
  place: ProjectPlace;
  image: ImageRepo | null;
  onClose(): void;
}) {
  const details = useImageDetails(props.place, props.image?.name ?? null);
  const d = details.data;
  let tags;
  if (details.isPending) tags = <Loader size="sm" aria-label={T.tags} />;
  else if (details.isError)
    tags = <Alert color="red">{messageOf(details.error, IMAGE_TEXTS.loadFailed)}</Alert>;
  else if (!d || d.tags.length === 0) tags = <Text c="dimmed">{T.noTags}</Text>;
  else
    tags = (
      <DataTable
        table={{ withTableBorder: true, striped: true }}
        rows={d.tags}
        rowKey={(t) => t.tag}
        columns={[
          { header: T.tag, cell: (t) => <Code>{t.tag}</Code> },
          { header: T.created, cell: (t) => (t.createdAt ? formatDate(t.createdAt) : T.unknown) },
          { header: T.size, cell: (t) => (t.size === null ? T.unknown : formatSize(t.size)) },
          {
            cell: (t) => (
              <Group gap={4} wrap="nowrap" justify="flex-end">
                <CopyAction
                  value={t.tag}
                  label={`${T.copyTag} ${t.tag}`}
                  icon={<IconTag size={16} />}
                />
                <CopyAction value={`${d.image}:${t.tag}`} label={`${T.copyImage} ${t.tag}`} />
              </Group>
            ),
          },
        ]}
      />
    );
  return (
    <Drawer
      opened={!!props.image}
      onClose={props.onClose}
      position="right"
      size="lg"
      title={props.image?.name ?? ''}
    >
      <Stack>
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {T.image}
          </Text>
          {d ? (
            <Group gap="xs" wrap="nowrap">
              <Code style={{ wordBreak: 'break-all' }}>{d.image}</Code>
              <CopyAction value={d.image} label={T.copyName} />
            </Group>
          ) : (
            <Code>{props.image?.repository}</Code>
          )}
        </Stack>
        <Text size="sm" fw={600}>
          {T.tags}
        </Text>
        {tags}
      </Stack>
    </Drawer>
  );
}
