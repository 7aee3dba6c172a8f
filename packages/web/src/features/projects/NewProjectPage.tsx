import type { FormEvent } from 'react';
import { useCallback, useState } from 'react';
import { Anchor, Button, Checkbox, Group, Select, Stack, Text, Title } from '@mantine/core';
import type { MemberRole } from '@orrery/contract';
import { useNavigate } from 'react-router';
import { projectExists, useCreateProject } from '../../api/projects';
import { withContext } from '../../app/context/links';
import { saveContext } from '../../app/context/storage';
import { usePlatformContext } from '../../app/context/platform-context';
import { useAccount } from '../../app/session/account';
import { CenteredPage } from '../../ui/CenteredPage';
import { firstFieldError } from '../../ui/errors';
import { NameInput } from '../../ui/NameInput';
import { notifyError } from '../../ui/notify';
import { useNameField } from '../../ui/useNameField';
import { DEFAULT_ROLE, DEFAULT_ROLE_OPTIONS, PROJECT_NAME_MESSAGES, PROJECT_TEXTS } from './texts';

export default function NewProjectPage() {
  const { names } = usePlatformContext();
  if (!names.org || !names.cluster) {
    return (
      <CenteredPage>
        <Title order={3}>{PROJECT_TEXTS.missingCluster}</Title>
      </CenteredPage>
    );
  }
  return <NewProjectForm orgName={names.org} clusterName={names.cluster} />;
}

function NewProjectForm({ orgName, clusterName }: { orgName: string; clusterName: string }) {
  const account = useAccount();
  const navigate = useNavigate();
  const check = useCallback(
    (name: string, signal?: AbortSignal) => projectExists({ orgName, clusterName, name }, signal),
    [orgName, clusterName],
  );
  const field = useNameField(PROJECT_NAME_MESSAGES, check, `${orgName}/${clusterName}`);
  const [defaultRole, setDefaultRole] = useState<MemberRole>(DEFAULT_ROLE);
  const [isDefault, setIsDefault] = useState(false);
  const create = useCreateProject();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    field.touch();
    if (!field.normalized || !(await field.ensureAvailable())) return;
    let name: string;
    try {
      const input = { name: field.normalized, orgName, clusterName, isDefault, defaultRole };
      name = (await create.mutateAsync(input)).name;
    } catch (error) {
      const fieldError = firstFieldError(error);
      if (fieldError) field.setServerError(fieldError);
      else notifyError(PROJECT_TEXTS.somethingWentWrong);
      return;
    }
    const context = { org: orgName, cluster: clusterName, project: name };
    saveContext(context);
    const reloaded = account.refresh();
    navigate(withContext('/', context));
    await reloaded;
  };

  return (
    <CenteredPage>
      <Title order={2}>{PROJECT_TEXTS.createTitle}</Title>
      <Text c="dimmed">{PROJECT_TEXTS.createIntro(orgName, clusterName)}</Text>
      <form onSubmit={submit} noValidate>
        <Stack>
          <NameInput
            field={field}
            label={PROJECT_TEXTS.nameLabel}
            placeholder={PROJECT_TEXTS.namePlaceholder}
            hint={PROJECT_TEXTS.nameHint}
            normalizedHint={PROJECT_TEXTS.willBeCreatedAs}
          />
          <Select
            label={PROJECT_TEXTS.defaultRoleLabel}
            data={DEFAULT_ROLE_OPTIONS}
            value={defaultRole}
            onChange={(value) => value && setDefaultRole(value as MemberRole)}
            allowDeselect={false}
          />
          <Checkbox
            label={PROJECT_TEXTS.isDefaultLabel}
            description={PROJECT_TEXTS.isDefaultHint}
            checked={isDefault}
            onChange={(e) => setIsDefault(e.currentTarget.checked)}
          />
        </Stack>
        <Group justify="space-between" mt="lg">
          <Anchor component="button" type="button" onClick={() => navigate(-1)}>
            {PROJECT_TEXTS.cancel}
          </Anchor>
          <Button type="submit" loading={create.isPending}>
            {PROJECT_TEXTS.create}
          </Button>
        </Group>
      </form>
    </CenteredPage>
  );
}
