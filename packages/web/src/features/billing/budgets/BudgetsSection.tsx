import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { messageOf } from '../../../ui/errors';
import { formatCredits } from '../credits';
import { type Budget, useBudgets, useRemoveBudget } from './api';
import { BudgetDialog } from './BudgetDialog';
import { BUDGET_UI as T } from './texts';

interface Row {
  project: string | null;
  subject: string;
  budget?: Budget;
}

/** Red past the budget, orange past a threshold, else the usual colour. */
const colorOf = (b: Budget) => (b.percent >= 100 ? 'red' : b.crossed !== null ? 'orange' : 'blue');

/**
 * The Credits tab's budgets: the organization's and each project's, the month's spend against
 * each. Only managers reach the billing page, so every row may be set, edited or removed.
 */
export function BudgetsSection({ org, projects }: { org: string; projects: string[] }) {
  const budgets = useBudgets(org);
  const remove = useRemoveBudget(org);
  const [editing, setEditing] = useState<Row | null>(null);
  const [removing, setRemoving] = useState<Row | null>(null);

  const byProject = new Map((budgets.data ?? []).map((b) => [b.projectName, b]));
  const names = [
    ...new Set([
      ...projects,
      ...(budgets.data ?? []).flatMap((b) => (b.projectName ? [b.projectName] : [])),
    ]),
  ].sort();
  const rows: Row[] = [
    { project: null, subject: org, budget: byProject.get(null) },
    ...names.map((p) => ({ project: p, subject: `${p} (${org})`, budget: byProject.get(p) })),
  ];

  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Title order={4}>{T.title}</Title>
        {budgets.isFetching && <Loader size="xs" />}
      </Group>
      <Text size="sm" c="dimmed">
        {T.hint}
      </Text>
      {budgets.isError ? (
        <Alert color="red">{messageOf(budgets.error, T.loadFailed)}</Alert>
      ) : !budgets.data ? (
        <Loader size="sm" />
      ) : (
        <Table aria-label={T.title} verticalSpacing="sm">
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.project ?? ''}>
                <Table.Td w={200}>
                  <Text fw={500}>{row.project ? T.project(row.project) : T.organization}</Text>
                </Table.Td>
                <Table.Td>
                  {row.budget ? <Spend budget={row.budget} /> : <Text c="dimmed">{T.none}</Text>}
                </Table.Td>
                <Table.Td w={180}>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button size="xs" variant="light" onClick={() => setEditing(row)}>
                      {row.budget ? T.edit : T.set}
                    </Button>
                    {row.budget && (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => setRemoving(row)}
                      >
                        {T.remove}
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <BudgetDialog
        org={org}
        project={editing?.project ?? null}
        subject={editing?.subject ?? org}
        current={editing?.budget}
        opened={!!editing}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        opened={!!removing}
        title={removing ? T.removeTitle(removing.subject) : ''}
        text={T.removeBody}
        cancelLabel={T.cancel}
        confirmLabel={T.remove}
        pending={remove.isPending}
        onConfirm={() => remove.mutateAsync(removing!.project)}
        success={T.removed}
        failure={T.removeFailed}
        onClose={() => setRemoving(null)}
      />
    </Stack>
  );
}

function Spend({ budget: b }: { budget: Budget }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text size="sm">
          {T.spent(formatCredits(b.spent), formatCredits(b.credits), b.percent)}
        </Text>
        <Group gap={4}>
          {b.thresholds.map((t) => (
            <Badge
              key={t}
              size="sm"
              variant={b.crossed !== null && t <= b.crossed ? 'filled' : 'outline'}
              color={b.crossed !== null && t <= b.crossed ? colorOf(b) : 'gray'}
            >
              {t}%
            </Badge>
          ))}
        </Group>
      </Group>
      <Progress
        value={Math.min(100, b.percent)}
        color={colorOf(b)}
        aria-label={T.spent(formatCredits(b.spent), formatCredits(b.credits), b.percent)}
      />
    </Stack>
  );
}
