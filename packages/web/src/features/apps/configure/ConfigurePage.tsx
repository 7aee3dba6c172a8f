import type { ProjectPlace } from '@orrery/contract';
import { useMemo, useState } from 'react';
import { Alert, Anchor, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  useAppTemplate,
  useConfigureApp,
  useInstance,
  useInstanceInput,
  type AppInstance,
  type AppTemplate,
} from '../../../api/apps';
import { withRule } from '../../../api/permissions';
import { useContextLink } from '../../../app/context/platform-context';
import { schemaRoot, useSchemaForm } from '../../../forms';
import { initialValue } from '../../../forms/values';
import { messageOf } from '../../../ui/errors';
import { notifySuccess } from '../../../ui/notify';
import { WhyNot } from '../../../ui/WhyNot';
import { AppFormPanel } from '../install/AppFormPanel';
import { FormFooter } from '../../../ui/FormFooter';
import { showSubmitError } from '../install/form-errors';
import { appLabel, FORM_MAX_WIDTH, refusal } from '../rules';
import { TemplateHeader } from '../TemplateHeader';
import { APPS_TEXTS } from '../texts';
import { configurableInput, configurableKeys, configureSchema } from './configurable';
import { useConfigureCan } from './useConfigureBlock';
import { CONFIGURE_TEXTS as T } from './texts';

/**
 * Configure an installed app (`PUT instances/{id}` of the apps API):
 * `/apps/instances/{instanceId}/configure`. The install form in configure mode, filled with the
 * current revision's input; only the inputs the server lets change are editable and sent.
 */
export default function ConfigurePage({ place }: { place: ProjectPlace }) {
  const { instanceId = '' } = useParams();
  const link = useContextLink();
  const app = useInstance(instanceId);
  const template = useAppTemplate(
    place,
    app.data?.templateName ?? '',
    app.data ? app.data.templateVersion : undefined,
  );
  const input = useInstanceInput(place, instanceId);
  const failed = [app, template, input].find((q) => q.isError);
  let body;
  if (failed)
    body = <Alert color="red">{messageOf(failed.error, APPS_TEXTS.somethingWentWrong)}</Alert>;
  else if (!app.data || !template.data || !input.data)
    body = <Loader aria-label={APPS_TEXTS.loading} />;
  else
    body = (
      <ConfigureForm
        key={`${instanceId}@${app.data.templateVersion}`}
        app={app.data}
        template={template.data}
        input={input.data}
        place={place}
      />
    );
  return (
    <Stack gap="md" maw={FORM_MAX_WIDTH}>
      <Anchor
        component={Link}
        to={link(`/apps/instances/${encodeURIComponent(instanceId)}`)}
        size="sm"
      >
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {T.back}
        </Group>
      </Anchor>
      {body}
    </Stack>
  );
}

function ConfigureForm(props: {
  app: AppInstance;
  template: AppTemplate;
  input: Record<string, unknown>;
  place: ProjectPlace;
}) {
  const { app, template } = props;
  const keys = useMemo(() => configurableKeys(template.input), [template.input]);
  const can = withRule(useConfigureCan(app), {
    enabled: keys.length > 0,
    why: T.nothingConfigurable,
  });
  const blocked = refusal(can);
  // A user who may not save sees the whole form as installed, nothing to type into in vain.
  const readOnly = !can.allowed;
  const schema = useMemo(
    () => configureSchema(template.input, { readOnly }),
    [template.input, readOnly],
  );
  // What the CLI installed may leave out inputs with defaults: the form shows them as they ran.
  const initial = useMemo(
    () => ({ ...(initialValue(schemaRoot(schema)) as object), ...props.input }),
    [schema, props.input],
  );
  const form = useSchemaForm(schema, { initial, configure: true });
  const [displayName, setDisplayName] = useState(app.displayName);
  const configure = useConfigureApp(props.place, app.id);
  const navigate = useNavigate();
  const link = useContextLink();
  const detailsPath = link(`/apps/instances/${encodeURIComponent(app.id)}`);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!can.allowed) return;
    if (!form.checkToSend()) return;
    const name = displayName.trim();
    configure.mutate(
      {
        displayName: name && name !== app.displayName ? name : undefined,
        input: configurableInput(form.values, keys),
      },
      {
        onSuccess: () => {
          notifySuccess(T.saved);
          navigate(detailsPath);
        },
        onError: (error) => showSubmitError(error, form),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TemplateHeader
          title={T.title(appLabel(app))}
          logo={template.logo}
          version={template.version}
        />
        {blocked ? (
          <Alert color="yellow">{blocked}</Alert>
        ) : (
          <Text size="sm" c="dimmed">
            {T.hint}
          </Text>
        )}
        <AppFormPanel
          form={form}
          place={props.place}
          displayName={displayName}
          onDisplayName={setDisplayName}
          readOnly={readOnly}
        />
        <FormFooter
          end={
            <>
              <Button variant="default" component={Link} to={detailsPath}>
                {T.cancel}
              </Button>
              <WhyNot can={can}>
                <Button type="submit" loading={configure.isPending}>
                  {T.save}
                </Button>
              </WhyNot>
            </>
          }
        />
      </Stack>
    </form>
  );
}
