import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft } from '@tabler/icons-react';
import {
  JOB_TEMPLATE,
  LATEST_VERSION,
  jobUri,
  type Camel,
  type JobRuntimeInfo,
  type ProjectPlace,
} from '@orrery/contract';
import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../api/client';
import { useCanOne, withRule } from '../../../api/permissions';
import { useContextLink, usePlatformContext } from '../../../app/context/platform-context';
import { SchemaFields, serverFieldErrors, useSchemaForm, type Preset } from '../../../forms';
import { messageOf } from '../../../ui/errors';
import { notifyError } from '../../../ui/notify';
import { FormFooter } from '../../../ui/FormFooter';
import { WhyNot } from '../../../ui/WhyNot';
import { useAppTemplate, type AppTemplate } from '../../../api/apps';
import { useCreateJob, useJobRuntime } from './api';
import { toJobBody, type JobFormValues } from './job-body';
import { CREATE_JOB_TEXTS as T, FORM_MAX_WIDTH } from './texts';
import { JOBS_TEXTS } from '../texts';
import { NeedsProject } from '../../../app/context/project-place';

/**
 * Create new job: the form of the built-in `job` template, latest version,
 * sent as `POST /jobs?from_preset`; the new job's page opens on success.
 */
export default function CreateJobPage() {
  const { cluster } = usePlatformContext();
  return (
    <NeedsProject title={T.title} description={T.missingProject}>
      {(place) => (
        <TemplateLoader place={place} presets={cluster?.details?.resourcePresets ?? []} />
      )}
    </NeedsProject>
  );
}

/**
 * The template's inputs without Workers (`nodes`) where this installation runs no job of several
 * workers, or has not said that it does: the form never offers what would be refused.
 */
function inputFor(template: AppTemplate, workers: boolean): AppTemplate['input'] {
  const input = template.input;
  if (workers || !input?.properties || !('nodes' in input.properties)) return input;
  const { nodes: _nodes, ...properties } = input.properties;
  return { ...input, properties };
}

/** A template without inputs is as good as none ("No job template found"). */
const isEmpty = (t: AppTemplate) => !t.input || Object.keys(t.input.properties ?? {}).length === 0;

function TemplateLoader({ place, presets }: { place: ProjectPlace; presets: Preset[] }) {
  // The apps' own query: the job form is the `job` template of the catalogue.
  const template = useAppTemplate(place, JOB_TEMPLATE, LATEST_VERSION);
  // Workers are offered only once the runtime said it runs jobs of several: the form is made
  // again then (the answer is usually cached by the jobs list, before anything is typed).
  const runtime = useJobRuntime();
  const workers = runtime.isSuccess && !runtime.data.workersRefusal;
  let body;
  if (template.isPending) body = <Loader aria-label={T.loading} />;
  else if (template.isError)
    body = (
      <Alert color="red">
        {template.error instanceof ApiError && template.error.status === 404
          ? T.templateMissing
          : messageOf(template.error, T.somethingWentWrong)}
      </Alert>
    );
  else if (isEmpty(template.data)) body = <Alert color="red">{T.noTemplate}</Alert>;
  else
    return (
      <JobForm
        key={String(workers)}
        template={template.data}
        place={place}
        presets={presets}
        workers={workers}
      />
    );
  return <PageFrame>{body}</PageFrame>;
}

/** The template's description is its README (markdown): the intro is its text, not its headings. */
const introOf = (description: string | undefined) =>
  description
    ?.split('\n')
    .filter((line) => !line.startsWith('#'))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim() || undefined;

function PageFrame({ children, intro }: { children: React.ReactNode; intro?: string }) {
  const link = useContextLink();
  return (
    <Stack maw={FORM_MAX_WIDTH} gap="md">
      <Anchor component={Link} to={link('/jobs')} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {T.back}
        </Group>
      </Anchor>
      <Title order={2}>{T.title}</Title>
      {intro && <Text c="dimmed">{intro}</Text>}
      {children}
    </Stack>
  );
}

function JobForm(props: {
  template: AppTemplate;
  place: ProjectPlace;
  presets: Preset[];
  workers: boolean;
}) {
  const runtime = useJobRuntime();
  const { template, workers } = props;
  const input = useMemo(() => inputFor(template, workers), [template, workers]);
  const form = useSchemaForm(input);
  const create = useCreateJob();
  const navigate = useNavigate();
  const link = useContextLink();
  // The page is reachable by its address: a reader sees the form but cannot send it. Nor can
  // anyone where the installation refuses every job (no sandbox, ORRERY_UNSANDBOXED_JOBS).
  const refused = runtime.data?.refusedReason ?? null;
  const canCreate = withRule(
    useCanOne({
      uri: jobUri(props.place.clusterName, props.place.orgName, props.place.projectName),
      action: 'write',
    }),
    { enabled: !refused, why: refused },
  );

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!canCreate.allowed || !form.checkToSend()) return;
    const { body, warning, toFormPath } = toJobBody(form.values as JobFormValues, props.place);
    if (warning) notifications.show({ color: 'yellow', message: warning });
    create.mutate(body, {
      onSuccess: (job) => navigate(link(`/jobs/${encodeURIComponent(job.id)}`)),
      onError: (error) => {
        const onFields = serverFieldErrors(error, form.root, toFormPath);
        if (Object.keys(onFields).length > 0) form.setErrors(onFields);
        else notifyError(messageOf(error, T.somethingWentWrong));
      },
    });
  };

  return (
    <PageFrame intro={introOf(props.template.description)}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {refused && (
            <Alert color="red" title={T.jobsRefused}>
              {refused}
            </Alert>
          )}
          {runtime.data?.isolationWarning && (
            <Alert color="red" title={T.notIsolated}>
              {runtime.data.isolationWarning}
            </Alert>
          )}
          <RuntimeLimits runtime={runtime.data} values={form.values as Partial<JobFormValues>} />
          {runtime.data && !runtime.data.usesImage && (
            <Alert color="yellow" title={T.processRuntime}>
              {T.imageNotUsed}
            </Alert>
          )}
          <Paper withBorder p="lg">
            <SchemaFields
              form={form}
              env={{ place: props.place, presets: props.presets, subject: 'job' }}
            />
          </Paper>
          <FormFooter
            end={
              <>
                <Button variant="default" component={Link} to={link('/jobs')}>
                  {T.cancel}
                </Button>
                <WhyNot can={canCreate}>
                  <Button type="submit" loading={create.isPending}>
                    {T.submit}
                  </Button>
                </WhyNot>
              </>
            }
          />
        </Stack>
      </form>
    </PageFrame>
  );
}

/**
 * What this installation does not give the job the form describes, said as soon as the form asks
 * for it: volumes or an HTTP port it refuses (Create would be answered with the same reason), and
 * an HTTP port that is not the declared one (the job must listen on `$PORT`).
 */
function RuntimeLimits(props: {
  runtime: Camel<JobRuntimeInfo> | undefined;
  values: Partial<JobFormValues>;
}) {
  const r = props.runtime;
  const port = props.values.http?.port;
  const volumes = (props.values.volumes ?? []).length > 0;
  return (
    <>
      {r?.volumesRefusedReason && volumes && (
        <Alert color="red" title={T.volumesRefused}>
          {r.volumesRefusedReason}
        </Alert>
      )}
      {r?.httpRefusedReason && port && (
        <Alert color="red" title={T.httpRefused}>
          {r.httpRefusedReason}
        </Alert>
      )}
      {r?.httpPortAssigned && port && !r.httpRefusedReason && (
        <Alert color="yellow" title={JOBS_TEXTS.listenOnPort.title}>
          {JOBS_TEXTS.listenOnPort.text(port)}
        </Alert>
      )}
    </>
  );
}
