import type { ProjectPlace } from '@orrery/contract';
import { useState, type ReactNode } from 'react';
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
import { ActionBar } from '../files/ActionBar';
import { DeleteDialog } from '../files/DeleteDialog';
import { BesideFileDrawer, FileDrawer } from '../files/FileDrawer';
import { FilesToolbar } from '../files/FilesToolbar';
import { FolderBreadcrumbs } from '../files/FolderBreadcrumbs';
import { FolderBody, useFolderBrowsing } from '../files/FolderBody';
import { NameDialog } from '../files/NameDialog';
import { isFolder } from '../files/paths';
import { FILE_TEXTS } from '../files/texts';
import { UploadList } from '../files/UploadList';
import { useFolderPath } from '../files/useFolderPath';
import { useStorageToken } from '../files/useStorageToken';
import { useUploads } from '../files/useUploads';
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
  const [path, go] = useFolderPath();
  const token = useStorageToken();
  // Uploads outlive a change of folder (the panel shows the open folder's); the rest is the folder's.
  const uploads = useUploads(
    (folder, file, options) =>
      uploadObject(place, name, prefixOf(folder) + file.name, file, { ...options, token }),
    bucketKeys.objects(place, name),
  );
  return (
    <>
      <Folder
        key={path.join('/')}
        place={place}
        bucket={name}
        path={path}
        token={token}
        go={go}
        onUpload={(files) => uploads.start(files, path)}
      >
        <UploadList
          uploads={uploads.inFolder(path)}
          onCancel={uploads.cancel}
          onDismiss={uploads.dismiss}
        />
      </Folder>
    </>
  );
}

function Folder(props: {
  place: ProjectPlace;
  bucket: string;
  path: string[];
  token: string | null;
  go(path: string[]): void;
  onUpload(files: File[]): void;
  /** The uploads, kept beside the drawer like the rest of the page. */
  children?: ReactNode;
}) {
  const { place, bucket, path, go } = props;
  const prefix = prefixOf(path);
  const folder = useBucketFolder(place, bucket, prefix);
  const browsing = useFolderBrowsing(path, go);
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
  const readOnly = !write.allowed;
  const entries = entriesOf(pages, prefix);
  const entry = entries.find((e) => e.path === selected) ?? null;
  const link =
    entry && !isFolder(entry) ? objectLink(place, bucket, prefix + entry.path, props.token) : null;
  return (
    <>
      <BesideFileDrawer open={!!entry}>
        <FolderBreadcrumbs path={path} root={bucket} onGo={go} />
        <FilesToolbar
          search={browsing.search}
          write={write}
          onSearch={browsing.setSearch}
          onAddFolder={() => setDialog('add')}
          onUpload={props.onUpload}
        />
        <FolderBody
          query={folder}
          loadingLabel={BUCKET_TEXTS.title}
          loadFailed={BUCKET_TEXTS.loadFailed}
          entries={entries}
          browsing={browsing}
          path={path}
          go={go}
          readOnly={readOnly}
          emptyTitle={path.length ? FILE_TEXTS.empty : T.empty}
          emptyDescription={readOnly ? T.emptyReadOnly : FILE_TEXTS.emptyHint}
          onUpload={props.onUpload}
        >
          {folder.hasNextPage && (
            <Center>
              <Button
                variant="default"
                loading={folder.isFetchingNextPage}
                onClick={() => void folder.fetchNextPage()}
              >
                {T.more}
              </Button>
            </Center>
          )}
        </FolderBody>
        {entry && (
          <ActionBar
            entry={entry}
            openUrl={link ?? ''}
            downloadUrl={link ?? undefined}
            write={write}
            onDelete={() => setDialog('delete')}
            onClear={() => setSelected(null)}
          />
        )}
        {props.children}
      </BesideFileDrawer>
      <FileDrawer
        entry={entry}
        savedIn={`${bucket}/${prefix}`}
        openUrl={link}
        onClose={() => setSelected(null)}
      />
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
  );
}
