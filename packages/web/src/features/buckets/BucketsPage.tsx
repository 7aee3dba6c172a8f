import type { ProjectPlace } from '@orrery/contract';
import { useState } from 'react';
import { Alert, Button, Group, Loader, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBucket, IconPlus, IconSearch } from '@tabler/icons-react';
import { Route, Routes, useNavigate } from 'react-router';
import { useBuckets, type Bucket } from '../../api/buckets';
import { useContextLink } from '../../app/context/platform-context';
import { useProjectCan } from '../../api/project-can';
import { EmptyState } from '../../ui/EmptyState';
import { WhyNot } from '../../ui/WhyNot';
import { messageOf } from '../../ui/errors';
import { notifyError } from '../../ui/notify';
import { useClickCount } from '../files';
import { BucketCard } from './BucketCard';
import { BucketDrawer } from './BucketDrawer';
import { BucketView } from './BucketView';
import { CreateBucketDialog } from './CreateBucketDialog';
import { CreateCredentialsDialog } from './CreateCredentialsDialog';
import { DeleteBucketDialog } from './DeleteBucketDialog';
import { bucketPath, matches } from './format';
import { BUCKET_TEXTS, SEARCH_DEBOUNCE_MS } from './texts';
import { PAGE_SEARCH_PROPS } from '../../app/shortcuts/shortcuts';
import { NeedsProject } from '../../app/context/project-place';

/** The Buckets area: the current project's buckets, and one bucket's page. */
export default function BucketsPage() {
  return (
    <NeedsProject title={BUCKET_TEXTS.empty} description={BUCKET_TEXTS.missingProject}>
      {(place) => (
        <Routes>
          <Route index element={<Buckets place={place} />} />
          <Route path=":bucketId/:bucketName?" element={<BucketView place={place} />} />
        </Routes>
      )}
    </NeedsProject>
  );
}

function Buckets({ place }: { place: ProjectPlace }) {
  const buckets = useBuckets(place);
  const navigate = useNavigate();
  const link = useContextLink();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [creating, setCreating] = useState(false);
  // As the create route checks: write on the project's buckets.
  const create = useProjectCan('write', 'blob');
  const [openId, setOpenId] = useState<string | null>(null);
  const [crediting, setCrediting] = useState<Bucket | null>(null);
  const [deleting, setDeleting] = useState<Bucket | null>(null);
  const all = buckets.data ?? [];
  const list = all.filter((b) => matches(b, debounced));
  // The drawer follows the list, so a deleted bucket closes it.
  const open = all.find((b) => b.id === openId) ?? null;

  const openBucket = (b: Bucket) => {
    if (b.provider === 'gcp') notifyError(BUCKET_TEXTS.gcpNotViewable);
    else void navigate(link(bucketPath(b)));
  };
  const click = useClickCount<Bucket>((b) => setOpenId(b.id), openBucket);

  let body;
  if (buckets.isPending) body = <Loader aria-label={BUCKET_TEXTS.title} />;
  else if (buckets.isError)
    body = <Alert color="red">{messageOf(buckets.error, BUCKET_TEXTS.loadFailed)}</Alert>;
  else if (list.length === 0)
    body = (
      <EmptyState
        icon={<IconBucket size={24} />}
        title={BUCKET_TEXTS.empty}
        description={debounced.trim() ? undefined : BUCKET_TEXTS.emptyHint}
      />
    );
  else
    body = (
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="sm">
        {list.map((b) => (
          <BucketCard key={b.id} bucket={b} selected={b.id === openId} onClick={() => click(b)} />
        ))}
      </SimpleGrid>
    );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{BUCKET_TEXTS.title}</Title>
        <WhyNot can={create}>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {BUCKET_TEXTS.create}
          </Button>
        </WhyNot>
      </Group>
      <TextInput
        aria-label={BUCKET_TEXTS.search}
        placeholder={BUCKET_TEXTS.search}
        leftSection={<IconSearch size={16} />}
        {...PAGE_SEARCH_PROPS}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={360}
      />
      {body}
      <BucketDrawer
        place={place}
        bucket={open}
        onClose={() => setOpenId(null)}
        onOpen={openBucket}
        onCreateCredentials={setCrediting}
        onDelete={setDeleting}
      />
      <CreateBucketDialog place={place} opened={creating} onClose={() => setCreating(false)} />
      <CreateCredentialsDialog
        place={place}
        buckets={all}
        bucket={crediting}
        onClose={() => setCrediting(null)}
      />
      <DeleteBucketDialog place={place} bucket={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
