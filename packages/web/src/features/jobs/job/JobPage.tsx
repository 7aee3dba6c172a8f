import { lazy, Suspense } from 'react';
import { ActionIcon, Button, Group, Loader, Stack, Tabs, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconLock, IconQuestionMark } from '@tabler/icons-react';
import { Navigate, Route, Routes, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../api/client';
import { useJob, type Job } from '../../../api/jobs';
import { ContextLink } from '../../../app/context/ContextLink';
import { useContextLink } from '../../../app/context/platform-context';
import { EmptyState } from '../../../ui/EmptyState';
import { LogsTab } from '../logs/LogsTab';
import { JobStatusBadge } from '../JobStatusBadge';
import { jobLabel } from '../rules';
import { JOBS_TEXTS } from '../texts';
import { DetailsTab } from './DetailsTab';
import { JobActions } from './JobActions';
import { JobNotices } from './JobNotices';
import { JobSidePanel } from './JobSidePanel';
import { OutputsTab, outputsUnavailable } from './OutputsTab';
import { useJobCluster } from './useJobCluster';
import { useJobStatusPush } from './useJobStatusPush';
import { useJobTop } from './useJobTop';
import { useWrittenOutputs } from './written-outputs';
import { WorkersTab, workersOf } from '../workers/WorkersTab';

// recharts is most of the weight of the charts; only readers of the Observability tab load it.
const ObservabilityTab = lazy(() => import('../observability/ObservabilityTab'));
const MetricsDashboard = lazy(() => import('../observability/MetricsDashboard'));

export const JOB_TABS = ['details', 'observability', 'logs', 'workers', 'outputs'] as const;
export type JobTab = (typeof JOB_TABS)[number];

/**
 * A failed fetch without an error body means the user may not read the job;
 * a 403 says the same in words. Anything else is "No such job".
 */
export const isPermissionError = (error: unknown) =>
  error instanceof ApiError && (error.body === null || error.status === 403);

/** The job page: `/jobs/:jobId` with the tabs below it. */
export default function JobPage() {
  const { jobId = '' } = useParams();
  const query = useJob(jobId);
  if (query.data) return <JobView key={jobId} job={query.data} />;
  if (query.isError) {
    const permission = isPermissionError(query.error);
    return (
      <EmptyState
        icon={permission ? <IconLock size={24} /> : <IconQuestionMark size={24} />}
        title={permission ? JOBS_TEXTS.permissionRequired : JOBS_TEXTS.noSuchJob}
        action={
          <Button component={ContextLink} to="/jobs" variant="default">
            {JOBS_TEXTS.back}
          </Button>
        }
      />
    );
  }
  return <Loader m="md" aria-label={JOBS_TEXTS.title} />;
}

function JobView({ job }: { job: Job }) {
  const cluster = useJobCluster(job);
  const top = useJobTop(job, cluster.monitoringUrl, cluster.token);
  useJobStatusPush(job, cluster.monitoringUrl, cluster.token);
  const link = useContextLink();
  const navigate = useNavigate();
  const rest = useParams()['*'] ?? '';
  const base = `/jobs/${job.id}`;
  const written = useWrittenOutputs(job, cluster.monitoringUrl, cluster.token);
  const noOutputs = outputsUnavailable(job, written);
  // The metrics dashboard belongs to Observability, where its link is.
  const tab: JobTab =
    rest === 'metrics'
      ? 'observability'
      : (JOB_TABS as readonly string[]).includes(rest)
        ? (rest as JobTab)
        : 'details';
  // A named job's written outputs show up as its log streams: until it has been read, the tab
  // stays reachable by its address.
  const outputsReachable = !!job.name && (!noOutputs || !written.done);
  const overview = <Navigate to={link(base)} replace />;
  // Only a job of several workers has workers to pick.
  const several = workersOf(job) > 1;

  return (
    <Stack>
      <Group gap="sm">
        <Tooltip label={JOBS_TEXTS.back}>
          <ActionIcon
            variant="subtle"
            component={ContextLink}
            to="/jobs"
            aria-label={JOBS_TEXTS.back}
          >
            <IconArrowLeft size={18} />
          </ActionIcon>
        </Tooltip>
        <Title order={2} style={{ wordBreak: 'break-all' }}>
          {jobLabel(job)}
        </Title>
        <JobStatusBadge status={job.status} />
      </Group>
      <JobNotices job={job} />
      <Group align="flex-start" wrap="nowrap" gap="md">
        <Stack style={{ flex: 1, minWidth: 0 }}>
          <Tabs
            value={tab}
            onChange={(v) => navigate(link(v === 'details' ? base : `${base}/${v}`))}
          >
            <Tabs.List>
              <Tabs.Tab value="details">{JOBS_TEXTS.tabs.details}</Tabs.Tab>
              <Tabs.Tab value="observability">{JOBS_TEXTS.tabs.observability}</Tabs.Tab>
              <Tabs.Tab value="logs">{JOBS_TEXTS.tabs.logs}</Tabs.Tab>
              {several && <Tabs.Tab value="workers">{JOBS_TEXTS.tabs.workers}</Tabs.Tab>}
              {noOutputs ? (
                // A disabled tab fires no pointer events: the wrapper shows why it is disabled.
                <Tooltip label={noOutputs}>
                  <span>
                    <Tabs.Tab value="outputs" disabled>
                      {JOBS_TEXTS.tabs.outputs}
                    </Tabs.Tab>
                  </span>
                </Tooltip>
              ) : (
                <Tabs.Tab value="outputs">{JOBS_TEXTS.tabs.outputs}</Tabs.Tab>
              )}
            </Tabs.List>
          </Tabs>
          <Routes>
            <Route index element={<DetailsTab job={job} />} />
            <Route
              path="observability"
              element={
                <Suspense fallback={<Loader size="sm" />}>
                  <ObservabilityTab
                    points={top.points}
                    state={top.state}
                    metricsLink={link(`${base}/metrics`)}
                  />
                </Suspense>
              }
            />
            <Route
              path="logs"
              element={
                <LogsTab job={job} monitoringUrl={cluster.monitoringUrl} token={cluster.token} />
              }
            />
            <Route
              path="workers"
              element={
                several ? (
                  <WorkersTab
                    job={job}
                    monitoringUrl={cluster.monitoringUrl}
                    token={cluster.token}
                  />
                ) : (
                  overview
                )
              }
            />
            <Route
              path="outputs"
              element={outputsReachable ? <OutputsTab job={job} written={written} /> : overview}
            />
            <Route
              path="metrics"
              element={
                <Suspense fallback={<Loader size="sm" />}>
                  <MetricsDashboard job={job} back={link(`${base}/observability`)} />
                </Suspense>
              }
            />
            <Route path="*" element={overview} />
          </Routes>
        </Stack>
        <JobSidePanel
          job={job}
          load={top.latest}
          actions={
            <JobActions
              job={job}
              username={cluster.username}
              monitoringUrl={cluster.monitoringUrl}
              registryHost={cluster.registryHost}
              token={cluster.token}
            />
          }
        />
      </Group>
    </Stack>
  );
}
