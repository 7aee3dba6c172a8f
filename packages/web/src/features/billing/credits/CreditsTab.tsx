import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Pagination,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import {
  LEDGER_PAGE_SIZE,
  useLedger,
  useOrgBalance,
  useUsage,
  type UsageFilters,
} from '../../../api/billing';
import { useOrgUsers } from '../../../api/people';
import { DataTable, NUMERIC } from '../../../ui/DataTable';
import { formatDate } from '../../../ui/dates';
import { messageOf } from '../../../ui/errors';
import { BudgetsSection } from '../budgets/BudgetsSection';
import { BuyCreditsDialog } from '../buy/BuyCreditsDialog';
import { formatCredits } from '../credits';
import { BILLING_TEXTS } from '../texts';

const T = BILLING_TEXTS.credits;
const C = T.columns;
const orUnlimited = (credits: string | null) =>
  credits === null ? T.unlimited : formatCredits(credits);

/**
 * The Credits tab: the balance and what the filters' period cost, the budgets, the ledger,
 * members' limits.
 */
export function CreditsTab({ filters, projects }: { filters: UsageFilters; projects: string[] }) {
  return (
    <Stack gap="xl">
      <Balance filters={filters} />
      <BudgetsSection org={filters.org} projects={projects} />
      <Ledger org={filters.org} />
      <MemberLimits org={filters.org} />
    </Stack>
  );
}

function Balance({ filters }: { filters: UsageFilters }) {
  const balance = useOrgBalance(filters.org);
  const spent = useUsage(filters);
  const [buying, setBuying] = useState(false);
  const credits = balance.data?.balance.credits;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Card withBorder>
        <Text size="sm" c="dimmed">
          {T.balance}
        </Text>
        {balance.isError ? (
          <Text c="red">{messageOf(balance.error, T.ledgerFailed)}</Text>
        ) : credits === undefined ? (
          <Loader size="sm" />
        ) : (
          <Group justify="space-between">
            <Text size="xl" fw={700}>
              {orUnlimited(credits)}
            </Text>
            {/* An unlimited organization has nothing to buy. */}
            {credits !== null && (
              <Button leftSection={<IconCoins size={16} />} onClick={() => setBuying(true)}>
                {BILLING_TEXTS.buy.open}
              </Button>
            )}
          </Group>
        )}
      </Card>
      <Card withBorder>
        <Text size="sm" c="dimmed">
          {T.spent}
        </Text>
        {spent.isError ? (
          <Text c="red">{messageOf(spent.error, BILLING_TEXTS.usage.loadFailed)}</Text>
        ) : !spent.data ? (
          <Loader size="sm" />
        ) : (
          <Text size="xl" fw={700}>
            {formatCredits(spent.data.total)}
          </Text>
        )}
      </Card>
      <BuyCreditsDialog org={filters.org} opened={buying} onClose={() => setBuying(false)} />
    </SimpleGrid>
  );
}

function Ledger({ org }: { org: string }) {
  const [page, setPage] = useState(1);
  const ledger = useLedger(org, page);
  const pages = Math.max(1, Math.ceil((ledger.data?.total ?? 0) / LEDGER_PAGE_SIZE));
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Title order={4}>{T.ledger}</Title>
        {ledger.isFetching && <Loader size="xs" />}
      </Group>
      {ledger.isError ? (
        <Alert color="red">{messageOf(ledger.error, T.ledgerFailed)}</Alert>
      ) : ledger.data && !ledger.data.items.length ? (
        <Text c="dimmed">{T.ledgerEmpty}</Text>
      ) : (
        <DataTable
          table={{ striped: true, 'aria-label': T.ledger }}
          rows={ledger.data?.items}
          rowKey={(e) => e.id}
          columns={[
            { header: C.date, cell: (e) => formatDate(e.createdAt) },
            {
              header: C.kind,
              cell: (e) => (
                <Badge variant="light" color={e.kind === 'usage' ? 'gray' : 'green'}>
                  {T.kinds[e.kind]}
                </Badge>
              ),
            },
            { header: C.credits, ...NUMERIC, cell: (e) => formatCredits(e.credits) },
            { header: C.balanceAfter, ...NUMERIC, cell: (e) => orUnlimited(e.balanceAfter) },
            { header: C.user, cell: (e) => e.userName ?? '—' },
            {
              header: C.reference,
              cell: (e) => (
                <Text size="sm" ff="monospace" truncate maw={320}>
                  {e.reference ?? '—'}
                </Text>
              ),
            },
          ]}
        />
      )}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
    </Stack>
  );
}

function MemberLimits({ org }: { org: string }) {
  const users = useOrgUsers(org);
  return (
    <Stack gap="sm">
      <Title order={4}>{T.members}</Title>
      {users.isError ? (
        <Alert color="red">{T.membersFailed}</Alert>
      ) : !users.data ? (
        <Loader size="sm" />
      ) : (
        <DataTable
          table={{ striped: true, 'aria-label': T.members }}
          rows={users.data}
          rowKey={(u) => u.userName}
          columns={[
            { header: C.name, cell: (u) => u.userName },
            { header: C.role, cell: (u) => u.role },
            { header: C.limit, ...NUMERIC, cell: (u) => orUnlimited(u.balance.credits) },
            { header: C.spent, ...NUMERIC, cell: (u) => formatCredits(u.balance.spentCredits) },
          ]}
        />
      )}
    </Stack>
  );
}
