import { lazy, Suspense, useState } from 'react';
import { Badge, Group, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconCoins } from '@tabler/icons-react';
import type { UserOrg } from '../../api/types';
import { useMemberBalance, useOrgBalance, usePaymentsMode } from '../../api/billing';
import { bindingCredits } from '../../features/billing/credits';
import { BILLING_TEXTS } from '../../features/billing/texts';
import { useManagesOrg } from '../../features/people/manages';
import { useAccount } from '../session/account';
import { LAYOUT_TEXTS } from './texts';

// The dialog and the billing sheets load when a manager first opens it.
const BuyCreditsDialog = lazy(() =>
  import('../../features/billing/buy/BuyCreditsDialog').then((m) => ({
    default: m.BuyCreditsDialog,
  })),
);

export type CreditsView =
  { kind: 'unlimited' } | { kind: 'value'; text: string } | { kind: 'unparseable' };

/** Balances are decimal strings on the wire; null means unlimited. */
export function creditsView(credits: string | null): CreditsView {
  if (credits === null) return { kind: 'unlimited' };
  const value = Number(credits);
  if (!credits.trim() || !Number.isFinite(value)) return { kind: 'unparseable' };
  return {
    kind: 'value',
    text: value.toLocaleString('en-US', { maximumFractionDigits: 2 }),
  };
}

/**
 * What binds the user in the organization: its balance, or their own lower limit; until the
 * fresh balance arrives, the one of the profile.
 */
export function useBindingCredits(org: UserOrg) {
  const { user } = useAccount();
  const balance = useOrgBalance(org.name);
  const member = useMemberBalance(org.name, user.username);
  const orgCredits = balance.data ? balance.data.balance.credits : org.balance.credits;
  return {
    orgCredits,
    view: creditsView(bindingCredits(orgCredits, member.data?.balance.credits)),
  };
}

/**
 * The top bar's credits: what binds the user in the organization (its balance, or their own
 * lower limit), read again while work runs. Organization managers open the buy dialog from it
 * when the organization's balance is not unlimited.
 */
export function CreditsDisplay({ org }: { org: UserOrg }) {
  const manages = useManagesOrg();
  const payments = usePaymentsMode();
  const [buying, setBuying] = useState(false);
  const { orgCredits, view } = useBindingCredits(org);
  const testMode = payments.data?.mode === 'test' && (
    <Badge size="sm" color="yellow" variant="light">
      {BILLING_TEXTS.buy.testMarker}
    </Badge>
  );
  if (view.kind === 'unparseable') {
    return (
      <Group gap={4} c="red" wrap="nowrap">
        <IconAlertTriangle size={16} aria-hidden />
        <Text size="sm">{LAYOUT_TEXTS.creditsUnparseable}</Text>
      </Group>
    );
  }
  const amount = (
    <Group gap={4} wrap="nowrap">
      <IconCoins size={16} aria-hidden />
      <Text size="sm" fw={500}>
        {view.kind === 'unlimited' ? LAYOUT_TEXTS.unlimited : view.text}
      </Text>
    </Group>
  );
  const canBuy = manages && orgCredits !== null;
  return (
    <Group gap="xs" wrap="nowrap">
      {canBuy ? (
        <Tooltip label={BILLING_TEXTS.buy.open}>
          <UnstyledButton
            aria-label={`${LAYOUT_TEXTS.credits}: ${BILLING_TEXTS.buy.open}`}
            onClick={() => setBuying(true)}
          >
            {amount}
          </UnstyledButton>
        </Tooltip>
      ) : (
        <Tooltip label={LAYOUT_TEXTS.credits}>
          <div aria-label={LAYOUT_TEXTS.credits}>{amount}</div>
        </Tooltip>
      )}
      {testMode}
      {canBuy && buying && (
        <Suspense fallback={null}>
          <BuyCreditsDialog org={org.name} opened onClose={() => setBuying(false)} />
        </Suspense>
      )}
    </Group>
  );
}
