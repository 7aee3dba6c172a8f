import type { ReactNode } from 'react';
import { Anchor, Code, Drawer, Loader, Stack, Table, Text, Title } from '@mantine/core';
import type { TaskWire } from '@orrery/contract';
import { useJob } from '../../../api/jobs';
import { ContextLink } from '../../../app/context/ContextLink';
import { messageOf } from '../../../ui/errors';
import { useJobCluster } from '../../jobs/job/useJobCluster';
import { LogsTab } from '../../jobs/logs/LogsTab';
import { taskStatus } from '../rules';
import { StatusBadge } from '../StatusBadge';
import { FLOW_TEXTS, GRAPH_TEXTS } from '../texts';

const T = GRAPH_TEXTS.details;
/** The narrowest dialog width: the middle of the graph stays in sight beside it. */
const DRAWER_WIDTH = 520;
const time = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/**
 * A task's details: its status history with times, its job (a link to the job page
 * and the job's log), outputs and state; a cached task names the job its results came from.
 */
export function TaskDrawer(props: { id: string | null; task: TaskWire | null; onClose(): void }) {
  const { id, task } = props;
  return (
    <Drawer
      opened={!!id}
      onClose={props.onClose}
      position="right"
      size={DRAWER_WIDTH}
      // The graph stays in sight, so another task can be picked while this one is open.
      withOverlay={false}
      title={id ? T.title(id) : ''}
    >
      {id && !task && <Text c="dimmed">{T.notStarted}</Text>}
      {task && <TaskDetails task={task} />}
    </Drawer>
  );
}

function TaskDetails({ task }: { task: TaskWire }) {
  const status = taskStatus(task);
  const cached = status === 'cached';
  return (
    <Stack>
      <StatusBadge status={status} />
      <Section title={T.history}>
        <Table>
          <Table.Tbody>
            {task.statuses.map((s, i) => (
              <Table.Tr key={i}>
                <Table.Td>
                  <StatusBadge status={s.status} />
                </Table.Td>
                <Table.Td>{time.format(new Date(s.created_at))}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Section>
      <Section title={cached ? T.cachedFrom : T.job}>
        {task.raw_id ? (
          <Anchor component={ContextLink} to={`/jobs/${encodeURIComponent(task.raw_id)}`}>
            <Code>{task.raw_id}</Code>
          </Anchor>
        ) : (
          <Text c="dimmed">{T.noJob}</Text>
        )}
      </Section>
      <Section title={T.outputs}>
        <Pairs values={task.outputs} />
      </Section>
      <Section title={T.state}>
        <Pairs values={task.state} />
      </Section>
      {task.raw_id && !cached && (
        <Section title={T.log}>
          <TaskLog jobId={task.raw_id} />
        </Section>
      )}
    </Stack>
  );
}

function Section(props: { title: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Title order={5}>{props.title}</Title>
      {props.children}
    </Stack>
  );
}

function Pairs({ values }: { values: Record<string, string> | null }) {
  const entries = Object.entries(values ?? {});
  if (entries.length === 0) return <Text c="dimmed">{T.none}</Text>;
  return (
    <Table withTableBorder>
      <Table.Tbody>
        {entries.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Td>
              <Code>{k}</Code>
            </Table.Td>
            <Table.Td style={{ wordBreak: 'break-all' }}>{v}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The task's job log in the job page's own log viewer. */
function TaskLog({ jobId }: { jobId: string }) {
  const job = useJob(jobId);
  const cluster = useJobCluster(job.data);
  if (job.isPending) return <Loader size="sm" aria-label={T.log} />;
  if (job.isError) return <Text c="red">{messageOf(job.error, FLOW_TEXTS.loadFailed)}</Text>;
  const h = job.data.history;
  // A failed task's log may be empty: the exit code and the scheduler's words say why it ended.
  const ended = h.status === 'failed' || h.status === 'cancelled';
  return (
    <Stack gap="xs">
      {ended && (
        <Text c="red" size="sm">
          {[T.ended(h.exitCode ?? undefined, h.reason ?? undefined), h.description]
            .filter(Boolean)
            .join(' — ')}
        </Text>
      )}
      <LogsTab job={job.data} monitoringUrl={cluster.monitoringUrl} token={cluster.token} />
    </Stack>
  );
}
