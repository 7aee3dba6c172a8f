import {
  Alert,
  Anchor,
  Badge,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconBriefcase, IconPlus } from '@tabler/icons-react';
import { Button } from '@mantine/core';
import type { ProjectPlace } from '@orrery/contract';
import { useJobList } from '../../api/jobs';
import type { UserOrg } from '../../api/types';
import { ContextLink } from '../../app/context/ContextLink';
import { usePlatformContext } from '../../app/context/platform-context';
import { useBindingCredits } from '../../app/layout/CreditsDisplay';
import { LAYOUT_TEXTS } from '../../app/layout/texts';
import { formatDate } from '../../ui/dates';
import { EmptyState } from '../../ui/EmptyState';
import { messageOf } from '../../ui/errors';
import { WhyNot } from '../../ui/WhyNot';
import { JobStatusBadge } from '../jobs/JobStatusBadge';
import { jobLabel } from '../jobs/rules';
import { JOBS_TEXTS } from '../jobs/texts';
import { useCanCreateJob } from '../jobs/useCanCreateJob';
import { NoProjects } from '../projects/NoProjects';
import { NoClusterWelcome } from './NoClusterWelcome';
import { HOME_TEXTS as T } from './texts';

/** How many of the project's latest jobs the home page lists. */
const RECENT_JOBS = 5;

const Field = ({ label, value }: { label: string; value: string }) => (
  <Stack gap={2}>
    <Text size="xs" c="dimmed" tt="uppercase">
      {label}
    </Text>
    <Text fw={500}>{value}</Text>
  </Stack>
);

/**
 * The project's home: where the user works (organization, cluster, role), what they can still
 * spend, and the project's latest jobs, or how to run a first one.
 */
export default function HomePage() {
  const { org, cluster, project } = usePlatformContext();
  if (!org) return null;
  if (!cluster) return <NoClusterWelcome org={org.name} />;
  if (!project) return <NoProjects org={org.name} cluster={cluster.name} />;
  const place = { clusterName: cluster.name, orgName: org.name, projectName: project.name };
  return (
    <Stack>
      <Title order={2}>{project.name}</Title>
      <Paper withBorder p="md" radius="md">
        <Text fw={600} mb="sm">
          {T.context}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
          <Field label={T.organization} value={org.name} />
          <Field label={T.cluster} value={cluster.name} />
          {cluster.details?.location && (
            <Field label={T.location} value={cluster.details.location} />
          )}
          <Stack gap={2}>
            <Text size="xs" c="dimmed" tt="uppercase">
              {T.yourRole}
            </Text>
            <Badge variant="light">{project.role ?? '—'}</Badge>
          </Stack>
        </SimpleGrid>
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Paper withBorder p="md" radius="md" style={{ gridColumn: 'span 2' }}>
          <RecentJobs place={place} />
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Credits org={org} />
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}

function RecentJobs({ place }: { place: ProjectPlace }) {
  const jobs = useJobList(place, { status: null, search: '', tags: [] });
  const canCreate = useCanCreateJob(place);
  const recent = (jobs.data?.pages.flatMap((p) => p.jobs) ?? []).slice(0, RECENT_JOBS);
  const create = (
    <WhyNot can={canCreate}>
      <Button component={ContextLink} to="/jobs/new" leftSection={<IconPlus size={16} />}>
        {JOBS_TEXTS.create}
      </Button>
    </WhyNot>
  );
  let body;
  if (jobs.isPending) body = <Loader size="sm" aria-label={T.recentJobs} />;
  else if (jobs.isError) body = <Alert color="red">{messageOf(jobs.error, T.jobsFailed)}</Alert>;
  else if (!recent.length)
    body = (
      <EmptyState
        icon={<IconBriefcase size={24} />}
        title={T.noJobs}
        description={T.firstJob}
        action={create}
      />
    );
  else
    body = (
      <Stack gap="xs">
        {recent.map((j) => (
          <Group key={j.id} justify="space-between" wrap="nowrap">
            <Anchor component={ContextLink} to={`/jobs/${j.id}`} truncate>
              {jobLabel(j)}
            </Anchor>
            <Group gap="sm" wrap="nowrap">
              <Text size="xs" c="dimmed">
                {formatDate(j.history.createdAt)}
              </Text>
              <JobStatusBadge status={j.status} />
            </Group>
          </Group>
        ))}
      </Stack>
    );
  return (
    <section aria-label={T.recentJobs}>
      <Group justify="space-between" mb="sm">
        <Text fw={600}>{T.recentJobs}</Text>
        {recent.length > 0 && (
          <Anchor component={ContextLink} to="/jobs" size="sm">
            {T.allJobs}
          </Anchor>
        )}
      </Group>
      {body}
    </section>
  );
}

function Credits({ org }: { org: UserOrg }) {
  const { view } = useBindingCredits(org);
  return (
    <section aria-label={T.credits}>
      <Text fw={600} mb="sm">
        {T.credits}
      </Text>
      <Text size="xl" fw={700}>
        {view.kind === 'unlimited'
          ? LAYOUT_TEXTS.unlimited
          : view.kind === 'value'
            ? view.text
            : LAYOUT_TEXTS.creditsUnparseable}
      </Text>
      <Text size="sm" c="dimmed">
        {T.creditsIn(org.name)}
      </Text>
    </section>
  );
}
