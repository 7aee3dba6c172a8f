import { Anchor, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Job } from '../../../api/jobs';
import { withContext } from '../../../app/context/links';
import { jobOutputs } from '../rules';
import { JOBS_TEXTS } from '../texts';

const C = JOBS_TEXTS.details.volumeColumns;

/** `storage://CLUSTER/ORG/PROJECT/a/b` → the Files page at `a/b` of that project. */
export const filesLink = (uri: string) => {
  const [cluster, org, project, ...path] = uri.replace(/^storage:\/\//, '').split('/');
  const query = path.length ? `?path=${encodeURIComponent(path.join('/'))}` : '';
  return withContext(`/files${query}`, { cluster, org, project });
};

/** Outputs: the job's writable mounts, where its results land; storage ones open in Files. */
export function OutputsTab({ job }: { job: Job }) {
  const outputs = jobOutputs(job);
  return (
    <Stack>
      <Text>{JOBS_TEXTS.outputs.intro}</Text>
      <Table withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{C.path}</Table.Th>
            <Table.Th>{C.source}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {outputs.map((o) => (
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
    </Stack>
  );
}
