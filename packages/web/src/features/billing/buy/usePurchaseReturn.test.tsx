import { screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderBilling } from '../test-fixtures';
import { usePurchaseReturn } from './usePurchaseReturn';

function Page() {
  usePurchaseReturn();
  return null;
}

const back = (query: string) =>
  renderBilling(<Page />, [], { route: `/jobs?org=acme&cluster=default&${query}` });

describe('coming back from a purchase', () => {
  // Toasts live in a store of the module, not of the rendered tree.
  beforeEach(() => notifications.clean());

  it('says the credits will be added shortly, then drops the parameters', async () => {
    const { url } = back('buy-credits-status=success&credits=10');
    expect(
      await screen.findByText(
        'Purchase of 10 credits was successful. The credits will be added shortly.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(url()).toBe('/jobs?org=acme&cluster=default&project=vision'));
  });

  it('says something went wrong after a cancelled or failed checkout', async () => {
    const { url } = back('buy-credits-status=failure');
    expect(await screen.findByText('Something went wrong when buying credits')).toBeTruthy();
    await waitFor(() => expect(url()).not.toContain('buy-credits-status'));
  });
});
