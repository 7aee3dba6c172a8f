import { useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import type { ProjectPlace } from '@orrery/contract';
import { formatDate } from '../../ui/dates';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { messageOf } from '../../ui/errors';
import { useProjectTokens, useRevokeToken, type ProjectToken } from './api';
import { CreateTokenDialog } from './CreateTokenDialog';
import { TOKENS_UI as T } from './texts';

const STATUS_COLOR = { active: 'green', expired: 'gray', revoked: 'red' } as const;

/** Project settings → Tokens, for the project's managers (the only ones the server answers). */
export function TokensTab({ place }: { place: ProjectPlace }) {
  const tokens = useProjectTokens(place);
  const revoke = useRevokeToken(place);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ProjectToken | null>(null);

  let body;
  if (tokens.isPending) body = <Loader aria-label={T.tab} />;
  else if (tokens.isError)
    body = <Alert color="red">{messageOf(tokens.error, T.listFailed)}</Alert>;
  else if (tokens.data.length === 0) body = <EmptyState title={T.none} />;
  else
    body = (
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{T.name}</Table.Th>
            <Table.Th>{T.role}</Table.Th>
            <Table.Th>{T.status}</Table.Th>
            <Table.Th>{T.expires}</Table.Th>
            <Table.Th>{T.createdBy}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tokens.data.map((t) => (
            <Table.Tr key={t.id}>
              <Table.Td>{t.name}</Table.Td>
              <Table.Td>{t.role}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={STATUS_COLOR[t.status]}>
                  {t.status}
                </Badge>
              </Table.Td>
              <Table.Td>{formatDate(t.expiresAt)}</Table.Td>
              <Table.Td>{t.createdBy ?? '—'}</Table.Td>
              <Table.Td>
                {t.status === 'active' && (
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    aria-label={`${T.revoke} ${t.name}`}
                    onClick={() => setRevoking(t)}
                  >
                    {T.revoke}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );

  return (
    <Stack>
      <Group justify="space-between">
        <Text c="dimmed" size="sm">
          {T.intro}
        </Text>
        <Button leftSection={<IconKey size={16} />} onClick={() => setCreating(true)}>
          {T.create}
        </Button>
      </Group>
      {body}
      <CreateTokenDialog place={place} opened={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        opened={!!revoking}
        title={T.revokeTitle}
        text={revoking ? T.revokeText(revoking.name) : null}
        cancelLabel={T.cancel}
        confirmLabel={T.revoke}
        pending={revoke.isPending}
        onConfirm={() => revoke.mutateAsync(revoking!.id)}
        success={revoking ? T.revoked(revoking.name) : ''}
        failure={T.revokeFailed}
        onClose={() => setRevoking(null)}
      />
    </Stack>
  );
}
