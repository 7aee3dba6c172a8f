import type { ReactNode } from 'react';
import { Badge, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import type { Job } from '../../../api/jobs';
import { JobCost } from '../../billing/cost/JobCost';
import { JOBS_TEXTS } from '../texts';
import type { LoadPoint } from './useJobTop';

const T = JOBS_TEXTS.side;

/**
 * ID / Name, Image, Preset, System Load (only running), Actions, Tags; and the
 * credits so far, read again with the job every JOB_REFRESH_MS.
 */
export function JobSidePanel(props: { job: Job; load: LoadPoint | null; actions: ReactNode }) {
  const { job, load } = props;
  return (
    <Paper withBorder p="md" w={300} style={{ flexShrink: 0 }} component="aside">
      <Stack gap="md">
        <Section title={T.idName}>
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {job.id}
          </Text>
          {job.name && <Text size="sm">{job.name}</Text>}
        </Section>
        <Section title={T.image}>
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            {job.container.image}
          </Text>
        </Section>
        <Section title={T.preset}>
          <Text size="sm">{job.presetName ?? JOBS_TEXTS.details.none}</Text>
        </Section>
        <Section title={T.credits}>
          <JobCost job={job} />
        </Section>
        {job.status === 'running' && (
          <Section title={T.load}>
            {load ? (
              <>
                <Meter label={T.cpu} value={load.cpu} />
                <Meter label={T.memory} value={load.memory} />
                {load.gpu !== undefined && <Meter label={T.gpu} value={load.gpu} />}
              </>
            ) : (
              <Text size="sm" c="dimmed">
                {T.waiting}
              </Text>
            )}
          </Section>
        )}
        <Section title={T.actions}>{props.actions}</Section>
        <Section title={T.tags}>
          {job.tags.length ? (
            <Group gap={4}>
              {job.tags.map((t) => (
                <Badge key={t} variant="outline" tt="none">
                  {t}
                </Badge>
              ))}
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {T.noTags}
            </Text>
          )}
        </Section>
      </Stack>
    </Paper>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={4} role="group" aria-label={title}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase">
        {title}
      </Text>
      {children}
    </Stack>
  );
}

function Meter({ label, value }: { label: string; value: number }) {
  return (
    <Stack gap={2}>
      <Group justify="space-between">
        <Text size="xs">{label}</Text>
        <Text size="xs">{`${value}%`}</Text>
      </Group>
      <Progress value={Math.min(value, 100)} aria-label={label} size="sm" />
    </Stack>
  );
}
