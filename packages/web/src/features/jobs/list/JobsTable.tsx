import { ActionIcon, Anchor, Badge, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useCan, withRule } from '../../../api/permissions';
import { WhyNot } from '../../../ui/WhyNot';
import { IconActivity, IconPlayerStop } from '@tabler/icons-react';
import { isWaiting, type Job } from '../../../api/jobs';
import { ContextLink } from '../../../app/context/ContextLink';
import { JobCost } from '../../billing/cost/JobCost';
import { JobStatusBadge } from '../JobStatusBadge';
import { jobActions, jobLabel } from '../rules';
import { JOBS_TEXTS } from '../texts';

const C = JOBS_TEXTS.columns;

/**
 * workloads §2: ID / Name, Image, Preset, Status, Tags, Actions (Monitor, Kill); the credits
 * each job has used so far, and a waiting job's place in the queue beside its status.
 */
export function JobsTable(props: {
  jobs: Job[];
  username: string;
  onKill(job: Job): void;
  onTag(tag: string): void;
}) {
  // Killing needs write on the job: a project reader, or a job shared read-only, may not.
  const mayKill = useCan(props.jobs.map((j) => ({ uri: j.uri, action: 'write' })));
  return (
    <Table highlightOnHover verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{C.name}</Table.Th>
          <Table.Th>{C.image}</Table.Th>
          <Table.Th>{C.preset}</Table.Th>
          <Table.Th>{C.status}</Table.Th>
          <Table.Th>{C.credits}</Table.Th>
          <Table.Th>{C.tags}</Table.Th>
          <Table.Th>{C.actions}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.jobs.map((job, i) => {
          const label = jobLabel(job);
          const kill = withRule(mayKill[i], jobActions(job, props.username, 'list').kill);
          return (
            <Table.Tr key={job.id}>
              <Table.Td>
                <Stack gap={0}>
                  <Anchor component={ContextLink} to={`/jobs/${job.id}`} fw={500}>
                    {label}
                  </Anchor>
                  {job.name && (
                    <Text size="xs" c="dimmed" ff="monospace">
                      {job.id}
                    </Text>
                  )}
                </Stack>
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>{job.container.image}</Table.Td>
              <Table.Td>{job.presetName ?? JOBS_TEXTS.details.none}</Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <JobStatusBadge status={job.status} />
                  {isWaiting(job.status) && job.queuePosition !== undefined && (
                    <Tooltip label={JOBS_TEXTS.wait.positionHint}>
                      <Badge variant="outline" color="gray" tt="none">
                        {JOBS_TEXTS.wait.positionBadge(job.queuePosition)}
                      </Badge>
                    </Tooltip>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>
                <JobCost job={job} />
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {job.tags.map((tag) => (
                    <Badge
                      key={tag}
                      variant="outline"
                      tt="none"
                      component="button"
                      style={{ cursor: 'pointer' }}
                      aria-label={JOBS_TEXTS.filterByTag(tag)}
                      onClick={() => props.onTag(tag)}
                    >
                      {tag}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label={JOBS_TEXTS.monitor}>
                    <ActionIcon
                      variant="subtle"
                      component={ContextLink}
                      to={`/jobs/${job.id}`}
                      aria-label={JOBS_TEXTS.monitorLabel(label)}
                    >
                      <IconActivity size={16} />
                    </ActionIcon>
                  </Tooltip>
                  <WhyNot can={kill} tooltip={JOBS_TEXTS.kill}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={JOBS_TEXTS.killLabel(label)}
                      onClick={() => props.onKill(job)}
                    >
                      <IconPlayerStop size={16} />
                    </ActionIcon>
                  </WhyNot>
                </Group>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
