import type { ProjectPlace } from '@orrery/contract';
import { Button, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { ApiError } from '../../../api/client';
import { useInstanceParams, type AppInstance } from '../../../api/apps';
import { messageOf } from '../../../ui/errors';
import { notifyError } from '../../../ui/notify';
import { downloadText } from '../../jobs/logs/download';
import { APPS_TEXTS } from '../texts';

const T = APPS_TEXTS.details;
const missing = (e: unknown) => e instanceof ApiError && e.status === 404;

/** An instance's input or output parameters as JSON, with download. */
export function ParamsSection(props: {
  place: ProjectPlace;
  app: AppInstance;
  type: 'input' | 'output';
}) {
  const query = useInstanceParams(props.place, props.app.id, props.type);
  const title = props.type === 'input' ? T.input : T.output;
  const download = () => {
    if (!query.data) return notifyError(T.downloadFailed);
    downloadText(`${props.app.name}-${props.type}.json`, [JSON.stringify(query.data, null, 2)]);
  };
  let body;
  if (query.isPending) body = <Loader size="sm" aria-label={APPS_TEXTS.loading} />;
  else if (query.isError)
    body = (
      <Text size="sm" c={missing(query.error) ? 'dimmed' : 'red'}>
        {missing(query.error) ? T.none : messageOf(query.error, APPS_TEXTS.somethingWentWrong)}
      </Text>
    );
  else
    body = (
      <Code block aria-label={title}>
        {JSON.stringify(query.data, null, 2)}
      </Code>
    );
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={4}>{title}</Title>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconDownload size={14} />}
          disabled={!query.data}
          onClick={download}
          aria-label={`${T.download} ${title}`}
        >
          {T.download}
        </Button>
      </Group>
      {body}
    </Stack>
  );
}

/** Scalars of a nested object as `a.b.c → value` rows. */
export function flatten(value: unknown, prefix = ''): [string, string][] {
  if (value === null || typeof value !== 'object') return [[prefix, String(value)]];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    flatten(v, prefix ? `${prefix}.${k}` : k),
  );
}

/** The Outputs tab: every output value on a row, URLs as links. */
export function OutputsTable(props: { place: ProjectPlace; app: AppInstance }) {
  const query = useInstanceParams(props.place, props.app.id, 'output');
  if (query.isPending) return <Loader size="sm" aria-label={APPS_TEXTS.loading} />;
  if (query.isError)
    return (
      <Text size="sm" c="dimmed">
        {missing(query.error) ? T.none : messageOf(query.error, APPS_TEXTS.somethingWentWrong)}
      </Text>
    );
  return (
    <Table>
      <Table.Tbody>
        {flatten(query.data).map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Td>
              <Text size="sm" ff="monospace">
                {k}
              </Text>
            </Table.Td>
            <Table.Td style={{ wordBreak: 'break-all' }}>{v}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
