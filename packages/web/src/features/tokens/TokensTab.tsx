import { useState } from 'react';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import type { ProjectPlace } from '@orrery/contract';
import { formatDate } from '../../ui/dates';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { DataTable } from '../../ui/DataTable';
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

  const body = (
    <DataTable
      status={{ query: tokens, loading: T.tab, failed: T.listFailed }}
      empty={<EmptyState title={T.none} />}
      rows={tokens.data}
      rowKey={(t) => t.id}
      columns={[
        { header: T.name, cell: (t) => t.name },
        { header: T.role, cell: (t) => t.role },
        {
          header: T.status,
          cell: (t) => (
            <Badge variant="light" color={STATUS_COLOR[t.status]}>
              {t.status}
            </Badge>
          ),
        },
        { header: T.expires, cell: (t) => formatDate(t.expiresAt) },
        { header: T.createdBy, cell: (t) => t.createdBy ?? '—' },
        {
          cell: (t) =>
            t.status === 'active' && (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                aria-label={`${T.revoke} ${t.name}`}
                onClick={() => setRevoking(t)}
              >
                {T.revoke}
              </Button>
            ),
        },
      ]}
    />
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
