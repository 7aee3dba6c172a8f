import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../../test/fetch';
import { renderSignedIn } from '../../../test/render';
import TestCheckoutPage from './TestCheckoutPage';

const ID = '3f1c2a4e-0000-4000-8000-000000000001';
const API = `/apis/billing/v1/checkouts/${ID}`;
const origin = window.location.origin;
const checkout = (status = 'open') => ({
  id: ID,
  org_name: 'acme',
  credits: 10,
  status,
  success_url: `${origin}/org-billing?tab=credits`,
  cancel_url: `${origin}/org-billing`,
  test: true,
});

const show = () =>
  renderSignedIn(
    <Routes>
      <Route path="/billing/checkout/:id" element={<TestCheckoutPage />} />
      <Route path="*" element={<p>left the checkout</p>} />
    </Routes>,
    { route: `/billing/checkout/${ID}`, withContext: false },
  );

describe('test checkout page', () => {
  it('says no money moves, shows the organization and credits, and pays to success_url', async () => {
    const back = `${origin}/org-billing?tab=credits&buy-credits-status=success&credits=10`;
    const { calls } = stubFetch([
      { url: API, body: checkout() },
      { method: 'POST', url: `${API}/pay`, body: { redirect_url: back } },
    ]);
    const { url } = show();
    expect(await screen.findByText('Test checkout: no money moves')).toBeTruthy();
    expect(screen.getByText('Test mode')).toBeTruthy();
    expect(screen.getByText('acme')).toBeTruthy();
    expect(screen.getByText('10')).toBeTruthy();
    expect(screen.getByText('$10.00 (not charged)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await waitFor(() =>
      expect(url()).toBe('/org-billing?tab=credits&buy-credits-status=success&credits=10'),
    );
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([`${API}/pay`]);
  });

  it('cancels to cancel_url', async () => {
    stubFetch([
      { url: API, body: checkout() },
      {
        method: 'POST',
        url: `${API}/cancel`,
        body: { redirect_url: `${origin}/org-billing?buy-credits-status=failure` },
      },
    ]);
    const { url } = show();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(url()).toBe('/org-billing?buy-credits-status=failure'));
  });

  it('shows the server’s refusal, and offers no Pay, to someone who may not pay', async () => {
    stubFetch([
      {
        url: API,
        status: 403,
        body: { error: 'forbidden', message: 'You do not have permission to do this' },
      },
    ]);
    show();
    expect(await screen.findByText('You do not have permission to do this')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pay' })).toBeNull();
  });

  it('offers no Pay on a checkout already paid', async () => {
    stubFetch([{ url: API, body: checkout('paid') }]);
    show();
    expect(await screen.findByText('This checkout is already paid.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pay' })).toBeNull();
  });

  it('stays on the page with the server’s message when paying fails', async () => {
    stubFetch([
      { url: API, body: checkout() },
      {
        method: 'POST',
        url: `${API}/pay`,
        status: 409,
        body: { error: 'conflict', message: 'This checkout is already cancelled' },
      },
    ]);
    const { url } = show();
    fireEvent.click(await screen.findByRole('button', { name: 'Pay' }));
    expect(await screen.findByText('This checkout is already cancelled')).toBeTruthy();
    expect(url()).toBe(`/billing/checkout/${ID}`);
  });
});
