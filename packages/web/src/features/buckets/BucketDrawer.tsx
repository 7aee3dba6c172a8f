import type { ProjectPlace } from '@orrery/contract';
import { Alert, Badge, Button, Drawer, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconFolderOpen, IconKey, IconTrash } from '@tabler/icons-react';
import { useBucketCredentials, type Bucket } from '../../api/buckets';
import { useCan } from '../../api/permissions';
import { useProjectUri } from '../../api/project-can';
import { WhyNot } from '../../ui/WhyNot';
import { messageOf } from '../../ui/errors';
import { BucketDetails } from './BucketDetails';
import { bucketLabel } from './format';
import { BUCKET_TEXTS } from './texts';

const T = BUCKET_TEXTS.drawer;

/** The credentials naming this bucket, then its details and actions. */
export function BucketDrawer(props: {
  place: ProjectPlace;
  bucket: Bucket | null;
  onClose(): void;
  onOpen(bucket: Bucket): void;
  onCreateCredentials(bucket: Bucket): void;
  onDelete(bucket: Bucket): void;
}) {
  const { bucket } = props;
  // As the routes check: deleting needs write on the bucket; credentials need read on the
  // project's buckets (read-only ones of Orrery's own keys), or write on an imported bucket,
  // whose keys are its provider's (the dialog offers read-write only to writers).
  const uri = useProjectUri();
  const [read, remove] = useCan([
    uri && { uri: uri('blob'), action: 'read' },
    uri && bucket && { uri: uri('blob', bucketLabel(bucket)), action: 'write' },
  ]);
  const credit = bucket?.imported ? remove : read;
  return (
    <Drawer
      opened={!!bucket}
      onClose={props.onClose}
      position="right"
      size="lg"
      title={bucket ? bucketLabel(bucket) : ''}
    >
      {bucket && (
        <Stack>
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              leftSection={<IconFolderOpen size={14} />}
              onClick={() => props.onOpen(bucket)}
            >
              {T.open}
            </Button>
            <WhyNot can={credit}>
              <Button
                size="xs"
                variant="light"
                leftSection={<IconKey size={14} />}
                onClick={() => props.onCreateCredentials(bucket)}
              >
                {BUCKET_TEXTS.createCredentials}
              </Button>
            </WhyNot>
            <WhyNot can={remove}>
              <Button
                size="xs"
                variant="light"
                color="red"
                leftSection={<IconTrash size={14} />}
                aria-label={BUCKET_TEXTS.deleteLabel(bucketLabel(bucket))}
                onClick={() => props.onDelete(bucket)}
              >
                {BUCKET_TEXTS.delete}
              </Button>
            </WhyNot>
          </Group>
          <Credentials place={props.place} bucket={bucket} />
          <BucketDetails bucket={bucket} />
        </Stack>
      )}
    </Drawer>
  );
}

function Credentials({ place, bucket }: { place: ProjectPlace; bucket: Bucket }) {
  const credentials = useBucketCredentials(place);
  const mine = (credentials.data ?? []).filter((c) => c.bucketIds.includes(bucket.id));
  let body;
  if (credentials.isPending) body = <Loader size="sm" aria-label={T.credentials} />;
  else if (credentials.isError)
    body = <Alert color="red">{messageOf(credentials.error, BUCKET_TEXTS.loadFailed)}</Alert>;
  else if (mine.length === 0)
    body = (
      <Text size="sm" c="dimmed">
        {T.noCredentials}
      </Text>
    );
  else
    body = (
      <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {mine.map((c) => (
          <Group key={c.id} component="li" gap="xs" wrap="nowrap">
            <IconKey size={14} aria-hidden />
            <Text size="sm" truncate>
              {c.name ?? c.id}
            </Text>
            <Badge size="sm" variant="light" color={c.readOnly ? 'gray' : 'blue'} tt="none">
              {c.readOnly ? T.readOnly : T.readWrite}
            </Badge>
            <Text size="xs" c="dimmed">
              {c.owner}
            </Text>
          </Group>
        ))}
      </Stack>
    );
  return (
    <Stack gap="xs">
      <Title order={5}>{T.credentials}</Title>
      {body}
    </Stack>
  );
}
