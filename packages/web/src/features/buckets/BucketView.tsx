import { Alert, Anchor, Group, Loader, Stack, Title } from '@mantine/core';
import { IconArrowLeft, IconInfoCircle } from '@tabler/icons-react';
import { useParams, useSearchParams } from 'react-router';
import { useBucket, type BucketPlace } from '../../api/buckets';
import { ContextLink } from '../../app/context/ContextLink';
import { messageOf } from '../../ui/errors';
import { BucketDetails } from './BucketDetails';
import { bucketLabel } from './format';
import { ProviderLogo } from './ProviderLogo';
import { BUCKET_TEXTS } from './texts';

const T = BUCKET_TEXTS.view;

/**
 * `/buckets/:bucketId?bucketName=…` (workloads §7). The server has no object listing yet, so this
 * shows the bucket itself and says so instead of pretending to list objects.
 */
export function BucketView({ place }: { place: BucketPlace }) {
  const { bucketId = '' } = useParams();
  const [params] = useSearchParams();
  const bucket = useBucket(place, bucketId);
  const title = bucket.data ? bucketLabel(bucket.data) : (params.get('bucketName') ?? bucketId);

  let body;
  if (bucket.isPending) body = <Loader aria-label={BUCKET_TEXTS.title} />;
  else if (bucket.isError) body = <Alert color="red">{messageOf(bucket.error, T.notFound)}</Alert>;
  else if (bucket.data.provider === 'gcp')
    body = <Alert color="red">{BUCKET_TEXTS.gcpNotViewable}</Alert>;
  else
    body = (
      <>
        <Alert color="blue" icon={<IconInfoCircle size={18} />}>
          {T.objectsPending}
        </Alert>
        <BucketDetails bucket={bucket.data} />
      </>
    );

  return (
    <Stack p="md" maw={900}>
      <Anchor component={ContextLink} to="/buckets" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {T.back}
        </Group>
      </Anchor>
      <Group gap="sm">
        {bucket.data && <ProviderLogo provider={bucket.data.provider} />}
        <Title order={2}>{title}</Title>
      </Group>
      {body}
    </Stack>
  );
}
