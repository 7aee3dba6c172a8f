import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { OrgRole } from '@orrery/contract';
import { usePlatformContext } from '../context/platform-context';
import { billingWire, renderBilling } from '../../features/billing/test-fixtures';
import type { PaymentsMode } from '../../api/billing';
import { CreditsDisplay } from './CreditsDisplay';

function TopBarCredits() {
  const { org } = usePlatformContext();
  return org && <CreditsDisplay org={org} />;
}

const show = (
  org: string | null,
  member: string | null,
  { role = 'manager' as OrgRole, mode = 'stripe' as PaymentsMode } = {},
) =>
  renderBilling(
    <TopBarCredits />,
    [billingWire.orgBalance(org, role), billingWire.member(member), billingWire.payments(mode)],
    { role, credits: org },
  );

const buyButton = () => screen.queryByRole('button', { name: /Buy credits/ });

describe('credits display', () => {
  it('shows Unlimited when neither the organization nor the member has a limit', async () => {
    show(null, null);
    expect(await screen.findByText('Unlimited')).toBeTruthy();
  });

  it("shows the organization's balance when the member's own limit is higher or none", async () => {
    show('1234.5', '5000');
    expect(await screen.findByText('1,234.5')).toBeTruthy();
  });

  it("shows the member's own limit when it is lower than the organization's balance", async () => {
    show('1234.5', '20.25');
    expect(await screen.findByText('20.25')).toBeTruthy();
    expect(screen.queryByText('1,234.5')).toBeNull();
  });

  it("shows the member's limit when the organization is unlimited", async () => {
    show(null, '7');
    expect(await screen.findByText('7')).toBeTruthy();
  });

  it('says when the balance cannot be parsed', async () => {
    show('lots', null);
    expect(
      await screen.findByText('Cannot parse organization balance for the organization'),
    ).toBeTruthy();
  });

  it('opens the buy dialog for an organization manager when the balance is limited', async () => {
    show('1234.5', null);
    await userEvent.click(await screen.findByRole('button', { name: /Buy credits/ }));
    expect(await screen.findByRole('dialog', { name: 'Buy credits' })).toBeTruthy();
  });

  it('offers no purchase when the organization is unlimited', async () => {
    show(null, null);
    await screen.findByText('Unlimited');
    expect(buyButton()).toBeNull();
  });

  it('lets a member who is not a manager see what they have left, with no purchase', async () => {
    show('1234.5', '30', { role: 'user' });
    expect(await screen.findByText('30')).toBeTruthy();
    expect(buyButton()).toBeNull();
  });

  it('marks the test payments mode beside the credits', async () => {
    show('1234.5', null, { mode: 'test' });
    expect(await screen.findByText('Test mode')).toBeTruthy();
  });

  it('has no test marker with a real payment provider', async () => {
    const { calls } = show('1234.5', null, { mode: 'stripe' });
    await screen.findByText('1,234.5');
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/payments'))).toBe(true));
    expect(screen.queryByText('Test mode')).toBeNull();
  });
});
