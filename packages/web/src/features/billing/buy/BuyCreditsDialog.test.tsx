import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PaymentsMode } from '../../../api/billing';
import type { CannedResponse, RecordedCall } from '../../../test/fetch';
import { B, billingWire, renderBilling } from '../test-fixtures';
import { BuyCreditsDialog } from './BuyCreditsDialog';

// jsdom follows a change of the fragment only: the test checkout lives at one.
const CHECKOUT = `${window.location.origin}/#checkout-7`;

const open = (mode: PaymentsMode, extra: CannedResponse[] = []) =>
  renderBilling(<BuyCreditsDialog org="acme" opened onClose={() => {}} />, [
    billingWire.payments(mode),
    ...extra,
  ]);
const creditsField = () => screen.findByLabelText('Credits') as Promise<HTMLInputElement>;
const buy = () => userEvent.click(screen.getByRole('button', { name: 'Buy' }));
const posts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'POST');

describe('buy credits dialog', () => {
  it('starts at 100 credits and the quick picks set 10, 100 or 1000', async () => {
    open('stripe');
    const field = await creditsField();
    expect(field.value).toBe('100');
    await userEvent.click(screen.getByRole('button', { name: '1,000' }));
    expect(field.value).toBe('1,000');
    await userEvent.click(screen.getByRole('button', { name: '10' }));
    expect(field.value).toBe('10');
    expect(screen.getByText('Each credit costs 100 cents: $10.00 in all.')).toBeTruthy();
  });

  it('asks for a positive number and sends nothing without one', async () => {
    const { calls } = open('stripe');
    const field = await creditsField();
    await userEvent.clear(field);
    await buy();
    expect(await screen.findByText('Credits must be a positive number')).toBeTruthy();
    await userEvent.type(field, '0');
    await buy();
    expect(screen.getByText('Credits must be a positive number')).toBeTruthy();
    expect(posts(calls)).toEqual([]);
  });

  it('sends credits × 100 cents with the way back, then goes to the checkout', async () => {
    const page = window.location.href;
    const { calls } = open('test', [
      { method: 'POST', url: `${B}/buy_credits`, body: { checkout_url: CHECKOUT } },
    ]);
    await userEvent.click(await screen.findByRole('button', { name: '10' }));
    await buy();
    await waitFor(() => expect(window.location.href).toBe(CHECKOUT));
    const back = (query: string) =>
      `${page.split('#')[0]}${page.includes('?') ? '&' : '?'}${query}`;
    expect(posts(calls).map((c) => c.body)).toEqual([
      {
        org_name: 'acme',
        amount_in_cents: 1000,
        success_url: back('buy-credits-status=success&credits=10'),
        cancel_url: back('buy-credits-status=failure'),
      },
    ]);
    expect(
      screen.getByText('Test mode: this installation has no payment provider, so no money moves.'),
    ).toBeTruthy();
    window.location.hash = '';
  });

  it("shows the server's refusal of the amount on the credits field", async () => {
    open('stripe', [
      {
        method: 'POST',
        url: `${B}/buy_credits`,
        status: 400,
        body: {
          error: 'validation',
          message: 'Invalid request',
          errors: [
            { path: 'amount_in_cents', message: 'At most 999,999 credits can be bought at once' },
          ],
        },
      },
    ]);
    const field = await creditsField();
    await userEvent.clear(field);
    await userEvent.type(field, '5000000');
    await buy();
    const message = await screen.findByText('At most 999,999 credits can be bought at once');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toContain(message.id);
  });

  it('says purchases are not configured when payments are off, and offers no Buy', async () => {
    open('off');
    expect(
      await screen.findByText(
        'Purchases are not configured here. Ask an administrator for credits.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Buy' })).toBeNull();
    expect(screen.queryByLabelText('Credits')).toBeNull();
  });
});
