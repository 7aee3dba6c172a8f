/** The test checkout page (ORRERY_PAYMENTS=test, docs/billing.md). */
export const CHECKOUT_TEXTS = {
  title: 'Buy credits',
  testBadge: 'Test mode',
  testTitle: 'Test checkout: no money moves',
  testBody:
    'Payments are in test mode on this server. Paying adds the credits to the organization without charging anyone.',
  organization: 'Organization',
  credits: 'Credits',
  price: 'Price',
  priceValue: (cents: number) =>
    `${(cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' })} (not charged)`,
  pay: 'Pay',
  cancel: 'Cancel',
  loading: 'Loading checkout',
  paid: 'This checkout is already paid.',
  cancelled: 'This checkout was cancelled.',
  back: 'Back to the console',
  failed: 'Something went wrong when buying credits',
} as const;
