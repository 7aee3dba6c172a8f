import { ActionIcon, Anchor, Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import { DataTable } from '../../../ui/DataTable';
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
 * ID / Name, Image, Preset, Status, Tags, Actions (Monitor, Kill); the credits
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
    <DataTable
      table={{ highlightOnHover: true, verticalSpacing: 'sm' }}
      rows={props.jobs}
      rowKey={(job) => job.id}
      columns={[
        {
          header: C.name,
          cell: (job) => (
            <Stack gap={0}>
              <Anchor component={ContextLink} to={`/jobs/${job.id}`} fw={500}>
                {jobLabel(job)}
              </Anchor>
              {job.name && (
                <Text size="xs" c="dimmed" ff="monospace">
                  {job.id}
                </Text>
              )}
            </Stack>
          ),
        },
        {
          header: C.image,
          cell: (job) => job.container.image,
          td: { style: { wordBreak: 'break-all' } },
        },
        { header: C.preset, cell: (job) => job.presetName ?? JOBS_TEXTS.details.none },
        {
          header: C.status,
          cell: (job) => (
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
          ),
        },
        { header: C.credits, cell: (job) => <JobCost job={job} /> },
        {
          header: C.tags,
          cell: (job) => (
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
          ),
        },
        {
          header: C.actions,
          cell: (job, i) => {
            const label = jobLabel(job);
            const kill = withRule(mayKill[i], jobActions(job, props.username, 'list').kill);
            return (
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
            );
          },
        },
      ]}
    />
  );
}
