import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch';
import { renderSignedIn } from '../../test/render';
import { CreditsDisplay } from './CreditsDisplay';

const show = (credits: string | null) => {
  stubFetch([]);
  renderSignedIn(<CreditsDisplay credits={credits} />, { withContext: false });
};

describe('credits display', () => {
  it('shows Unlimited for a null balance', () => {
    show(null);
    expect(screen.getByText('Unlimited')).toBeTruthy();
  });

  it('shows the balance as a number', () => {
    show('1234.5');
    expect(screen.getByText('1,234.5')).toBeTruthy();
  });

  it('says when the balance cannot be parsed', () => {
    show('lots');
    expect(screen.getByText('Cannot parse organization balance for the organization')).toBeTruthy();
  });
});
