import type { ProjectPlace } from '@orrery/contract';
import { useState } from 'react';
import {
  ActionIcon,
  Button,
  Group,
  Loader,
  Stack,
  Table,
  Tabs,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconLock,
  IconQuestionMark,
  IconRefresh,
  IconTrash,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, Route, Routes, useNavigate, useParams } from 'react-router';
import { appsKeys, useInstance, useInstanceParams, type AppInstance } from '../../../api/apps';
import { withRule } from '../../../api/permissions';
import { ContextLink } from '../../../app/context/ContextLink';
import { useContextLink } from '../../../app/context/platform-context';
import { formatDate } from '../../../ui/dates';
import { EmptyState } from '../../../ui/EmptyState';
import { WhyNot } from '../../../ui/WhyNot';
import { isPermissionError } from '../../jobs/job/JobPage';
import { ConfigureButton } from '../configure/ConfigureButton';
import { InstallProgress, useInstallProgress } from '../install/InstallProgress';
import { AppStateBadge, OpenAppButton } from '../installed/InstanceCard';
import { appLabel, useAppsWrite } from '../rules';
import { APPS_TEXTS } from '../texts';
import { EventsList } from './EventsList';
import { Credits, IdleShutdown, StartupStep, StateProblem } from './InstanceFacts';
import { InstanceJobTab } from './InstanceJob';
import { LogTab } from './LogTab';
import { OutputsTable, ParamsSection } from './ParamsSection';
import { UninstallDialog } from './UninstallDialog';

const T = APPS_TEXTS.details;
const TABS = ['details', 'observability', 'log', 'outputs'] as const;
type Tab = (typeof TABS)[number];

/** App details: `/apps/instances/{instanceId}` and its tabs. */
export default function AppDetailsPage({ place }: { place: ProjectPlace }) {
  const { instanceId = '' } = useParams();
  const query = useInstance(instanceId);
  if (query.data) return <InstanceView key={instanceId} app={query.data} place={place} />;
  if (query.isError) {
    const permission = isPermissionError(query.error);
    return (
      <EmptyState
        icon={permission ? <IconLock size={24} /> : <IconQuestionMark size={24} />}
        title={permission ? T.permissionRequired : T.noSuchApp}
        action={
          <Button component={ContextLink} to="/apps/installed" variant="default">
            {T.back}
          </Button>
        }
      />
    );
  }
  return <Loader m="md" aria-label={APPS_TEXTS.loading} />;
}

/** The main job: Orrery's `job_id` on the App, else the `job_id` the output carries. */
function useMainJob(place: ProjectPlace, app: AppInstance): string | null {
  const output = useInstanceParams(place, app.id, 'output');
  const fromOutput = output.data?.job_id ?? output.data?.jobId;
  return app.jobId ?? (typeof fromOutput === 'string' ? fromOutput : null);
}

function InstanceView({ app, place }: { app: AppInstance; place: ProjectPlace }) {
  const link = useContextLink();
  const navigate = useNavigate();
  const client = useQueryClient();
  const write = useAppsWrite();
  const [confirming, setConfirming] = useState(false);
  const jobId = useMainJob(place, app);
  const progress = useInstallProgress(app, jobId);
  const rest = useParams()['*'] ?? '';
  const base = `/apps/instances/${encodeURIComponent(app.id)}`;
  const tab: Tab = (TABS as readonly string[]).includes(rest) ? (rest as Tab) : 'details';
  const uninstall = withRule(write, {
    enabled: app.state !== 'uninstalling',
    why: APPS_TEXTS.why.uninstalling,
  });

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Group gap="sm">
          <Tooltip label={T.back}>
            <ActionIcon
              variant="subtle"
              component={ContextLink}
              to="/apps/installed"
              aria-label={T.back}
            >
              <IconArrowLeft size={18} />
            </ActionIcon>
          </Tooltip>
          <Title order={2} style={{ wordBreak: 'break-all' }}>
            {appLabel(app)}
          </Title>
          <AppStateBadge state={app.state} />
        </Group>
        <Group gap="xs">
          <OpenAppButton app={app} />
          <ConfigureButton app={app} place={place} />
          <Button
            variant="default"
            leftSection={<IconRefresh size={14} />}
            onClick={() => client.invalidateQueries({ queryKey: appsKeys.instance(app.id) })}
          >
            {T.refresh}
          </Button>
          <WhyNot can={uninstall}>
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={14} />}
              onClick={() => setConfirming(true)}
            >
              {T.uninstall}
            </Button>
          </WhyNot>
        </Group>
      </Group>
      <StateProblem app={app} />
      <StartupStep app={app} jobEnded={progress.ended} />
      <InstallProgress progress={progress} />
      <IdleShutdown app={app} />
      <Credits app={app} />
      <Tabs value={tab} onChange={(v) => navigate(link(v === 'details' ? base : `${base}/${v}`))}>
        <Tabs.List>
          {TABS.map((t) => (
            <Tabs.Tab key={t} value={t}>
              {T.tabs[t]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Routes>
        <Route index element={<DetailsTab app={app} place={place} />} />
        <Route path="observability" element={<InstanceJobTab jobId={jobId} />} />
        <Route path="log" element={<LogTab app={app} />} />
        <Route path="outputs" element={<OutputsTable app={app} place={place} />} />
        <Route path="*" element={<Navigate to={link(base)} replace />} />
      </Routes>
      <UninstallDialog
        place={place}
        app={app}
        opened={confirming}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}

function DetailsTab({ app, place }: { app: AppInstance; place: ProjectPlace }) {
  const rows: [string, string][] = [
    [T.name, app.name],
    [T.template, `${app.templateName} ${app.templateVersion}`],
    [T.owner, app.creator],
    [T.created, formatDate(app.createdAt)],
  ];
  return (
    <Stack gap="lg">
      <Table maw={640}>
        <Table.Tbody>
          {rows.map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Th w={160}>{k}</Table.Th>
              <Table.Td>{v}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <ParamsSection place={place} app={app} type="input" />
      <ParamsSection place={place} app={app} type="output" />
      <EventsList place={place} id={app.id} />
    </Stack>
  );
}
