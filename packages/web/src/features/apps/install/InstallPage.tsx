import type { ProjectPlace } from '@orrery/contract';
import { Alert, Anchor, Button, Group, Loader, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useAppTemplate, useInstallApp, type AppTemplate } from '../../../api/apps';
import { ApiError } from '../../../api/client';
import { useContextLink } from '../../../app/context/platform-context';
import { useSchemaForm } from '../../../forms';
import { messageOf } from '../../../ui/errors';
import { WhyNot } from '../../../ui/WhyNot';
import { FORM_MAX_WIDTH, installCan, refusal, useAppsWrite } from '../rules';
import { ExportConfigButton, ImportConfigButton } from '../config';
import { TemplateHeader } from '../TemplateHeader';
import { useJobRuntime } from '../../jobs/create/api';
import { AppFormPanel } from './AppFormPanel';
import { FormFooter } from '../../../ui/FormFooter';
import type { InstallState } from './InstallProgress';
import { showSubmitError } from './form-errors';
import { APPS_TEXTS } from '../texts';

const T = APPS_TEXTS.install;
const LATEST = 'latest';

/**
 * Install: the template's input schema as a form, max width 720, with the
 * sticky footer; Install posts `v1/instances` and opens the new instance's page, which follows
 * the installer job the answer names (`outputParams.jobId`).
 * `/apps/{appName}/install[/{version}]`.
 */
export default function InstallPage(props: { place: ProjectPlace }) {
  const { appName = '', version = LATEST } = useParams();
  const template = useAppTemplate(props.place, appName, version);
  const link = useContextLink();
  let body;
  if (template.isPending) body = <Loader aria-label={APPS_TEXTS.loading} />;
  else if (template.isError)
    body = (
      <Alert color="red">
        {template.error instanceof ApiError && template.error.status === 404
          ? APPS_TEXTS.explore.notFound
          : messageOf(template.error, APPS_TEXTS.somethingWentWrong)}
      </Alert>
    );
  else if (!template.data?.input || typeof template.data.input !== 'object')
    body = <Alert color="red">{T.noSchema}</Alert>;
  else
    body = (
      <InstallForm
        key={`${appName}@${template.data.version}`}
        template={template.data}
        place={props.place}
      />
    );
  return (
    <Stack gap="md" maw={FORM_MAX_WIDTH}>
      <Anchor component={Link} to={link(`/apps/${encodeURIComponent(appName)}`)} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {APPS_TEXTS.explore.back}
        </Group>
      </Anchor>
      {body}
    </Stack>
  );
}

function InstallForm(props: { template: AppTemplate; place: ProjectPlace }) {
  const { template } = props;
  const form = useSchemaForm(template.input);
  const [displayName, setDisplayName] = useState('');
  const install = useInstallApp(props.place);
  const navigate = useNavigate();
  const link = useContextLink();
  const can = installCan(useAppsWrite(), template);
  // An app's jobs run like any other: where they are not isolated, every user is told first.
  const notIsolated = useJobRuntime().data?.isolationWarning;
  // A reader who opens the page directly learns before filling it in that it cannot be sent.
  const blocked = refusal(can);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!can.allowed) return;
    if (!form.checkToSend()) return;
    install.mutate(
      {
        templateName: template.name,
        templateVersion: template.version,
        displayName: displayName.trim() || undefined,
        input: (form.values ?? {}) as Record<string, unknown>,
      },
      {
        onSuccess: (app) => {
          notifications.show({ color: 'green', message: T.beingInstalled });
          const state: InstallState = { installerJobId: app.outputParams?.jobId ?? null };
          navigate(link(`/apps/instances/${encodeURIComponent(app.id)}`), { state });
        },
        onError: (error) => showSubmitError(error, form),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TemplateHeader title={template.title} logo={template.logo} version={template.version} />
        {blocked && <Alert color="yellow">{blocked}</Alert>}
        {notIsolated && (
          <Alert color="red" title={T.notIsolated}>
            {notIsolated}
          </Alert>
        )}
        <AppFormPanel
          form={form}
          place={props.place}
          displayName={displayName}
          onDisplayName={setDisplayName}
          displayNameHint={T.displayNameHint}
        />
        <FormFooter
          start={
            <>
              <ImportConfigButton
                template={template}
                onApply={(input, name) => {
                  form.setValues(input);
                  if (name) setDisplayName(name);
                }}
              />
              <ExportConfigButton
                template={template}
                values={form.values}
                valid={form.valid}
                displayName={displayName.trim() || undefined}
              />
            </>
          }
          // The footer (Export App Configuration and Install); leaving is the
          // back link above, so that the footer fits one line at the form's 720 px.
          end={
            <WhyNot can={can}>
              <Button type="submit" loading={install.isPending}>
                {T.submit}
              </Button>
            </WhyNot>
          }
        />
      </Stack>
    </form>
  );
}
