import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { DataTable } from '../../../ui/DataTable';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ApiError } from '../../../api/client';
import type { Job } from '../../../api/jobs';
import { getFileStatus, storageKeys } from '../../../api/storage';
import { messageOf } from '../../../ui/errors';
import { withContext } from '../../../app/context/links';
import { jobOutputs } from '../rules';
import { JOBS_TEXTS } from '../texts';
import type { WrittenState } from './written-outputs';

const C = JOBS_TEXTS.details.volumeColumns;
const T = JOBS_TEXTS.outputs;

const storagePlace = (uri: string) => {
  const [clusterName, orgName, projectName, ...path] = uri
    .replace(/^storage:\/\//, '')
    .split('/')
    .filter(Boolean);
  return { place: { clusterName, orgName, projectName }, path };
};

/** `storage://CLUSTER/ORG/PROJECT/a/b` → the Files page at `a/b` of that project. */
export const filesLink = (uri: string) => {
  const { place, path } = storagePlace(uri);
  const query = path.length ? `?path=${encodeURIComponent(path.join('/'))}` : '';
  return withContext(`/files${query}`, {
    cluster: place.clusterName,
    org: place.orgName,
    project: place.projectName,
  });
};

/** A storage output path: a link into Files once it exists, else why there is none. */
function StorageOutput({ uri }: { uri: string }) {
  const { place, path } = storagePlace(uri);
  const status = useQuery({
    queryKey: storageKeys.status(place, path),
    queryFn: ({ signal }) => getFileStatus(place, path, signal),
    retry: false,
  });
  if (status.isSuccess)
    return (
      <Anchor component={Link} to={filesLink(uri)}>
        {uri}
      </Anchor>
    );
  const missing = status.error instanceof ApiError && status.error.status === 404;
  return (
    <Stack gap={0}>
      <Text size="sm">{uri}</Text>
      {status.isError && (
        <Text size="xs" c="dimmed">
          {missing ? T.notYet : messageOf(status.error, T.notYet)}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Why a job's Outputs tab is disabled, or null when it has outputs: a named job
 * with output paths (writable mounts) or values written with `::set-output`.
 */
export function outputsUnavailable(job: Job, written: WrittenState): string | null {
  if (!job.name) return T.unnamed;
  return jobOutputs(job).length || written.outputs.length ? null : T.none;
}

/**
 * Outputs: the job's writable mounts, where its results land (storage ones open in Files), and
 * the values it wrote to its log.
 */
export function OutputsTab({ job, written }: { job: Job; written: WrittenState }) {
  const paths = jobOutputs(job);
  return (
    <Stack>
      {paths.length > 0 && (
        <>
          <Text>{T.intro}</Text>
          <DataTable
            table={{ withTableBorder: true }}
            rows={paths}
            rowKey={(o) => o.path}
            columns={[
              { header: C.path, cell: (o) => o.path },
              {
                header: C.source,
                td: { style: { wordBreak: 'break-all' } },
                cell: (o) => (o.kind === 'storage' ? <StorageOutput uri={o.uri} /> : o.uri),
              },
            ]}
          />
        </>
      )}
      {written.outputs.length > 0 && (
        <>
          <Title order={4}>{T.written}</Title>
          <Text>{T.writtenIntro}</Text>
          <DataTable
            table={{ withTableBorder: true, 'aria-label': T.written }}
            rows={written.outputs}
            rowKey={([name]) => name}
            columns={[
              { header: T.name, cell: ([name]) => name },
              {
                header: T.value,
                td: { style: { wordBreak: 'break-all' } },
                cell: ([, value]) => value,
              },
            ]}
          />
        </>
      )}
      {!paths.length && !written.outputs.length && !written.error && (
        <Text c="dimmed">{T.none}</Text>
      )}
      {written.error && <Alert color="red">{written.error}</Alert>}
    </Stack>
  );
}
