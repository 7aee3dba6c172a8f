import { Badge, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { usePlatformContext } from '../../app/context/platform-context';
import { NoProjects } from '../projects/NoProjects';
import { NoClusterWelcome } from './NoClusterWelcome';
import { HOME_TEXTS } from './texts';

const Field = ({ label, value }: { label: string; value: string }) => (
  <Stack gap={2}>
    <Text size="xs" c="dimmed" tt="uppercase">
      {label}
    </Text>
    <Text fw={500}>{value}</Text>
  </Stack>
);

export default function HomePage() {
  const { org, cluster, project } = usePlatformContext();
  if (!org) return null;
  if (!cluster) return <NoClusterWelcome org={org.name} />;
  if (!project) return <NoProjects org={org.name} cluster={cluster.name} />;
  return (
    <Stack>
      <Title order={2}>{project.name}</Title>
      <Paper withBorder p="md" radius="md">
        <Text fw={600} mb="sm">
          {HOME_TEXTS.context}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
          <Field label={HOME_TEXTS.organization} value={org.name} />
          <Field label={HOME_TEXTS.cluster} value={cluster.name} />
          {cluster.details?.location && (
            <Field label={HOME_TEXTS.location} value={cluster.details.location} />
          )}
          <Stack gap={2}>
            <Text size="xs" c="dimmed" tt="uppercase">
              {HOME_TEXTS.yourRole}
            </Text>
            <Badge variant="light">{project.role ?? '—'}</Badge>
          </Stack>
        </SimpleGrid>
      </Paper>
    </Stack>
  );
}
