import type { ProjectPlace } from '@orrery/contract';
import { useState } from 'react';
import { Alert, Anchor, Button, Center, Group, Loader, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useParams } from 'react-router';
import {
  addFolder,
  bucketKeys,
  deleteObjects,
  objectLink,
  uploadObject,
  useBucket,
  useBucketFolder,
  useObjectsMutation,
  type Bucket,
} from '../../api/buckets';
import { useCanOne } from '../../api/permissions';
import { useProjectUri } from '../../api/project-can';
import type { FileStatus } from '../../api/storage';
import { ContextLink } from '../../app/context/ContextLink';
import { messageOf } from '../../ui/errors';
import { notifySuccess } from '../../ui/notify';
import {
  ActionBar,
  DeleteDialog,
  FILE_TEXTS,
  FolderBrowser,
  FolderPages,
  isFolder,
  NameDialog,
  useFolderBrowsing,
  type OpenFolder,
} from '../files';
import { bucketLabel } from './format';
import { entriesOf, prefixOf } from './objects';
import { ProviderLogo } from './ProviderLogo';
import { BUCKET_TEXTS } from './texts';

const T = BUCKET_TEXTS.view;

/**
 * `/buckets/:bucketId/:bucketName`: the bucket's objects in the files area's
 * browser, one folder (key prefix) at a time, the folder in `?path=` as on the Files page.
 */
export function BucketView({ place }: { place: ProjectPlace }) {
  const { bucketId = '', bucketName } = useParams();
  const bucket = useBucket(place, bucketId);
  const title = bucket.data ? bucketLabel(bucket.data) : (bucketName ?? bucketId);

  let body;
  if (bucket.isPending) body = <Loader aria-label={BUCKET_TEXTS.title} />;
  else if (bucket.isError) body = <Alert color="red">{messageOf(bucket.error, T.notFound)}</Alert>;
  else if (bucket.data.provider === 'gcp')
    body = <Alert color="red">{BUCKET_TEXTS.gcpNotViewable}</Alert>;
  else body = <Objects place={place} bucket={bucket.data} />;

  return (
    <Stack gap="md">
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

function Objects({ place, bucket }: { place: ProjectPlace; bucket: Bucket }) {
  // The name, as the bucket's permission URI has it (api/buckets.ts).
  const name = bucketLabel(bucket);
  return (
    <FolderPages
      upload={(folder, file, options, token) =>
        uploadObject(place, name, prefixOf(folder) + file.name, file, { ...options, token })
      }
      refresh={bucketKeys.objects(place, name)}
    >
      {(folder) => <Folder place={place} bucket={name} folder={folder} />}
    </FolderPages>
  );
}

function Folder(props: { place: ProjectPlace; bucket: string; folder: OpenFolder }) {
  const { place, bucket } = props;
  const { path } = props.folder;
  const prefix = prefixOf(path);
  const folder = useBucketFolder(place, bucket, prefix);
  const browsing = useFolderBrowsing(path, props.folder.go);
  const { selected, setSelected } = browsing;
  const [dialog, setDialog] = useState<'add' | 'delete' | null>(null);
  const mkdir = useObjectsMutation(place, bucket, (folderName: string) =>
    addFolder(place, bucket, prefix + folderName),
  );
  const remove = useObjectsMutation(place, bucket, (e: FileStatus) =>
    deleteObjects(place, bucket, prefix + e.path + (isFolder(e) ? '/' : '')),
  );

  const pages = folder.data?.pages ?? [];
  // Adding and deleting objects need write on the bucket (`blob://…/BUCKET`), the permission
  // engine's answer: until it is known, nothing may be added to the bucket.
  const uri = useProjectUri();
  const write = useCanOne(uri && { uri: uri('blob', bucket), action: 'write' });
  const entries = entriesOf(pages, prefix);
  const entry = entries.find((e) => e.path === selected) ?? null;
  const link =
    entry && !isFolder(entry)
      ? objectLink(place, bucket, prefix + entry.path, props.folder.token)
      : null;
  return (
    <FolderBrowser
      folder={props.folder}
      browsing={browsing}
      root={bucket}
      query={folder}
      entries={entries}
      entry={entry}
      write={write}
      texts={{
        loading: BUCKET_TEXTS.title,
        loadFailed: BUCKET_TEXTS.loadFailed,
        empty: path.length ? FILE_TEXTS.empty : T.empty,
        emptyHint: write.allowed ? FILE_TEXTS.emptyHint : T.emptyReadOnly,
      }}
      onAddFolder={() => setDialog('add')}
      more={
        folder.hasNextPage && (
          <Center>
            <Button
              variant="default"
              loading={folder.isFetchingNextPage}
              onClick={() => void folder.fetchNextPage()}
            >
              {T.more}
            </Button>
          </Center>
        )
      }
      actions={
        entry && (
          <ActionBar
            entry={entry}
            openUrl={link ?? ''}
            downloadUrl={link ?? undefined}
            write={write}
            onDelete={() => setDialog('delete')}
            onClear={() => setSelected(null)}
          />
        )
      }
      savedIn={`${bucket}/${prefix}`}
      openUrl={link}
      dialogs={
        <>
          {dialog === 'add' && (
            <NameDialog
              title={FILE_TEXTS.addFolderDialog.title}
              label={FILE_TEXTS.addFolderDialog.name}
              submit={FILE_TEXTS.addFolderDialog.submit}
              onClose={() => setDialog(null)}
              onSubmit={async (folderName) => {
                await mkdir.mutateAsync(folderName);
                notifySuccess(FILE_TEXTS.addFolderDialog.created(folderName));
              }}
            />
          )}
          {dialog === 'delete' && entry && (
            <DeleteDialog
              entry={entry}
              onClose={() => setDialog(null)}
              onDelete={async (e) => {
                await remove.mutateAsync(e);
                setSelected(null);
              }}
            />
          )}
        </>
      }
    />
  );
}
