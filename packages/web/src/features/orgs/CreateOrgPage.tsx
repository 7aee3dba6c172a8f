import type { FormEvent } from 'react';
import { Anchor, Button, Group, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { orgExists, useCreateOrg } from '../../api/orgs';
import { withContext } from '../../app/context/links';
import { saveContext } from '../../app/context/storage';
import { useAccount } from '../../app/session/account';
import { VerifyEmailNotice } from '../../app/session/VerifyEmailNotice';
import { CenteredPage } from '../../ui/CenteredPage';
import { firstFieldError, messageOf } from '../../ui/errors';
import { NameInput } from '../../ui/NameInput';
import { notifyError } from '../../ui/notify';
import { useNameField } from '../../ui/useNameField';
import { ORG_NAME_MESSAGES, ORG_TEXTS } from './texts';

export default function CreateOrgPage() {
  const account = useAccount();
  const navigate = useNavigate();
  const field = useNameField(ORG_NAME_MESSAGES, orgExists);
  const create = useCreateOrg();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    field.touch();
    if (!field.normalized || !(await field.ensureAvailable())) return;
    let name: string;
    try {
      name = (await create.mutateAsync(field.normalized)).name;
    } catch (error) {
      const fieldError = firstFieldError(error);
      if (fieldError) field.setServerError(fieldError);
      else notifyError(messageOf(error, ORG_TEXTS.somethingWentWrong));
      return;
    }
    // The cluster is left open so the context picks the new organization's first cluster.
    saveContext({ org: name });
    // Arrive with the new membership already loaded: on the old account the home page knows no
    // organization and sends the creator back to onboarding instead of into the organization.
    await account.refresh();
    navigate(withContext('/', { org: name }));
  };

  return (
    <CenteredPage>
      <Title order={2}>{ORG_TEXTS.createTitle}</Title>
      <Text c="dimmed">{ORG_TEXTS.createIntro}</Text>
      <VerifyEmailNotice blocked={ORG_TEXTS.verifyBlocked} />
      <form onSubmit={submit} noValidate>
        <NameInput
          field={field}
          label={ORG_TEXTS.nameLabel}
          placeholder={ORG_TEXTS.namePlaceholder}
          hint={ORG_TEXTS.nameHint}
          normalizedHint={ORG_TEXTS.willBeCreatedAs}
        />
        <Group justify="space-between" mt="lg">
          <Anchor component="button" type="button" onClick={() => navigate(-1)}>
            {ORG_TEXTS.cancel}
          </Anchor>
          <Button type="submit" loading={create.isPending} disabled={!account.user.emailVerified}>
            {ORG_TEXTS.create}
          </Button>
        </Group>
      </form>
    </CenteredPage>
  );
}
