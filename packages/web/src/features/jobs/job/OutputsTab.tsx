import { Alert, Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Job } from '../../../api/jobs';
import { withContext } from '../../../app/context/links';
import { jobOutputs } from '../rules';
import { JOBS_TEXTS } from '../texts';
import type { WrittenState } from './written-outputs';

const C = JOBS_TEXTS.details.volumeColumns;
const T = JOBS_TEXTS.outputs;

/** `storage://CLUSTER/ORG/PROJECT/a/b` → the Files page at `a/b` of that project. */
export const filesLink = (uri: string) => {
  const [cluster, org, project, ...path] = uri.replace(/^storage:\/\//, '').split('/');
  const query = path.length ? `?path=${encodeURIComponent(path.join('/'))}` : '';
  return withContext(`/files${query}`, { cluster, org, project });
};

/**
 * Why a job's Outputs tab is disabled, or null when it has outputs (workloads §2): a named job
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
          <Table withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{C.path}</Table.Th>
                <Table.Th>{C.source}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {paths.map((o) => (
                <Table.Tr key={o.path}>
                  <Table.Td>{o.path}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    {o.kind === 'storage' ? (
                      <Anchor component={Link} to={filesLink(o.uri)}>
                        {o.uri}
                      </Anchor>
                    ) : (
                      o.uri
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
      {written.outputs.length > 0 && (
        <>
          <Title order={4}>{T.written}</Title>
          <Text>{T.writtenIntro}</Text>
          <Table withTableBorder aria-label={T.written}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{T.name}</Table.Th>
                <Table.Th>{T.value}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {written.outputs.map(([name, value]) => (
                <Table.Tr key={name}>
                  <Table.Td>{name}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
      {!paths.length && !written.outputs.length && !written.error && (
        <Text c="dimmed">{T.none}</Text>
      )}
      {written.error && <Alert color="red">{written.error}</Alert>}
    </Stack>
  );
}
