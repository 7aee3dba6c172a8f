import type { ProjectPlace } from '@orrery/contract';
import { useState } from 'react';
import { Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconLock, IconPlus } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import type { Secret } from '../../api/secrets';
import { useSecrets } from '../../api/secrets';
import { DataTable } from '../../ui/DataTable';
import { DeleteAction } from '../../ui/RowActions';
import { EmptyState } from '../../ui/EmptyState';
import { CreateSecretDialog } from './CreateSecretDialog';
import { DeleteSecretDialog } from './DeleteSecretDialog';
import { useProjectCanEach } from '../../api/project-can';
import { WhyNot } from '../../ui/WhyNot';
import { useSecretsManage } from './scope';
import { useProjectPlace } from '../../app/context/project-place';
import { SECRET_TEXTS } from './texts';

/** `?create=1` opens the create dialog ("can be opened with a create action"). */
export const CREATE_PARAM = 'create';

export default function SecretsPage() {
  const scope = useProjectPlace();
  if (!scope) {
    return <EmptyState icon={<IconLock size={24} />} title={SECRET_TEXTS.noProject} />;
  }
  return <SecretsOfProject scope={scope} />;
}

function SecretsOfProject({ scope }: { scope: ProjectPlace }) {
  const manage = useSecretsManage();
  const canManage = manage.allowed;
  const secrets = useSecrets(scope);
  const [params, setParams] = useSearchParams();
  const [deleting, setDeleting] = useState<string | null>(null);
  const creating = canManage && params.get(CREATE_PARAM) === '1';
  const setCreating = (open: boolean) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (open) next.set(CREATE_PARAM, '1');
      else next.delete(CREATE_PARAM);
      return next;
    });

  const createButton = (
    <WhyNot can={manage}>
      <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
        {SECRET_TEXTS.create}
      </Button>
    </WhyNot>
  );

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={2}>{SECRET_TEXTS.title}</Title>
          <Text c="dimmed">{SECRET_TEXTS.intro}</Text>
        </Stack>
        {(secrets.data?.length ?? 0) > 0 && createButton}
      </Group>
      {secrets.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : secrets.isError ? (
        <EmptyState title={SECRET_TEXTS.somethingWentWrong} />
      ) : secrets.data.length === 0 ? (
        <EmptyState
          icon={<IconLock size={24} />}
          title={SECRET_TEXTS.empty}
          description={canManage ? SECRET_TEXTS.emptyHintManager : SECRET_TEXTS.emptyHintReader}
          action={createButton}
        />
      ) : (
        <SecretsTable secrets={secrets.data} onDelete={setDeleting} />
      )}
      <CreateSecretDialog scope={scope} opened={creating} onClose={() => setCreating(false)} />
      {canManage && (
        <DeleteSecretDialog scope={scope} secretKey={deleting} onClose={() => setDeleting(null)} />
      )}
    </Stack>
  );
}

function SecretsTable({
  secrets,
  onDelete,
}: {
  secrets: Secret[];
  onDelete: (key: string) => void;
}) {
  // Deleting asks `manage` on the secret itself, as the delete route does.
  const deletes = useProjectCanEach(
    'manage',
    'secret',
    secrets.map((s) => s.key),
  );
  return (
    <DataTable
      table={{ striped: true, highlightOnHover: true }}
      rows={secrets}
      rowKey={(s) => s.key}
      columns={[
        { header: SECRET_TEXTS.columnKey, cell: (s) => s.key, td: { ff: 'monospace' } },
        { header: SECRET_TEXTS.columnOwner, cell: (s) => s.owner },
        {
          header: SECRET_TEXTS.columnActions,
          th: { w: 80 },
          cell: (s, i) => (
            <WhyNot can={deletes[i]}>
              <DeleteAction
                label={SECRET_TEXTS.deleteLabel(s.key)}
                onClick={() => onDelete(s.key)}
              />
            </WhyNot>
          ),
        },
      ]}
    />
  );
}
