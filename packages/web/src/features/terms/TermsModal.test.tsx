import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetch';
import { renderSignedIn } from '../../test/render';
import { TermsModal } from './TermsModal';

const agreeButton = () => screen.getByRole('button', { name: 'I agree' }) as HTMLButtonElement;

describe('Terms of Use', () => {
  it('enables "I agree" only once the agreement is ticked, then accepts the terms', async () => {
    const { calls } = stubFetch([{ method: 'PUT', url: '/api/v1/users/alice/profile', body: {} }]);
    renderSignedIn(
      <TermsModal
        productTitle="Orrery"
        termsUrl="/docs/terms.md"
        username="alice"
        name="Alice Smith"
        email="alice@example.org"
        onLogout={vi.fn()}
      />,
      { withContext: false },
    );
    expect(agreeButton().disabled).toBe(true);
    // The terms' text is one click away, in a tab of its own.
    const read = screen.getByRole('link', { name: 'Read the Terms of Use' });
    expect(read.getAttribute('href')).toBe('/docs/terms.md');
    expect(read.getAttribute('target')).toBe('_blank');
    fireEvent.click(screen.getByLabelText('I have read and agree to the Terms of Use'));
    expect(agreeButton().disabled).toBe(false);
    fireEvent.click(agreeButton());
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toEqual({
      terms_accepted: true,
      name: 'Alice Smith',
      email: 'alice@example.org',
    });
  });

  it('offers logging out instead', () => {
    stubFetch([]);
    const onLogout = vi.fn();
    renderSignedIn(
      <TermsModal
        productTitle="Orrery"
        termsUrl="/docs/terms.md"
        username="alice"
        name="A"
        email="a@b.c"
        onLogout={onLogout}
      />,
      { withContext: false },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    expect(onLogout).toHaveBeenCalled();
  });

  it('asks to contact support when the username is missing', async () => {
    const { calls } = stubFetch([]);
    renderSignedIn(
      <TermsModal
        productTitle="Orrery"
        termsUrl="/docs/terms.md"
        username=""
        name="A"
        email="a@b.c"
        onLogout={vi.fn()}
      />,
      { withContext: false },
    );
    fireEvent.click(screen.getByLabelText('I have read and agree to the Terms of Use'));
    fireEvent.click(agreeButton());
    expect(await screen.findByText(/Please contact support/)).toBeTruthy();
    expect(calls).toHaveLength(0);
  });
});
