import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { camel, wire } from '../../test/fixtures';
import { stubFetch } from '../../test/fetch';
import { renderSignedIn } from '../../test/render';
import CreateOrgPage from './CreateOrgPage';

const type = (value: string) =>
  fireEvent.change(screen.getByLabelText(/Organization name/), { target: { value } });
/** Lets the 500 ms pause elapse, then returns to real timers so `findBy*` can poll. */
const pause = async () => {
  await act(() => vi.advanceTimersByTimeAsync(500));
  vi.useRealTimers();
};
const existsCalls = (calls: { url: string }[]) => calls.filter((c) => c.url.endsWith('/exists'));

describe('Create organization', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it('checks the normalised name 500 ms after typing stops and reports a taken name', async () => {
    const { calls } = stubFetch([{ url: '/api/v1/orgs/my-team/exists', body: wire.exists(true) }]);
    renderSignedIn(<CreateOrgPage />, { withContext: false });
    type('My Team');
    expect(screen.getByText('Will be created as "my-team"')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(existsCalls(calls)).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    vi.useRealTimers();
    expect(existsCalls(calls)).toHaveLength(1);
    expect(await screen.findByText('Organization with such name already exits')).toBeTruthy();
  });

  it('only checks the last name typed', async () => {
    const { calls } = stubFetch([{ url: /\/exists$/, body: wire.exists(false) }]);
    renderSignedIn(<CreateOrgPage />, { withContext: false });
    type('a');
    await act(() => vi.advanceTimersByTimeAsync(300));
    type('acme');
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(existsCalls(calls).map((c) => c.url)).toEqual(['/api/v1/orgs/acme/exists']);
  });

  it('counts a 403 on the exists check as a taken name', async () => {
    stubFetch([
      {
        url: '/api/v1/orgs/acme/exists',
        status: 403,
        body: wire.error({ error: 'forbidden', message: 'Forbidden' }),
      },
    ]);
    renderSignedIn(<CreateOrgPage />, { withContext: false });
    type('acme');
    await pause();
    expect(await screen.findByText('Organization with such name already exits')).toBeTruthy();
  });

  it('shows validation messages and sends nothing for an invalid name', async () => {
    const { calls } = stubFetch([]);
    renderSignedIn(<CreateOrgPage />, { withContext: false });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    });
    expect(screen.getByText('Organization name is required')).toBeTruthy();
    type('acme_corp');
    expect(screen.getByText('Organization name is invalid')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(calls).toHaveLength(0);
  });

  it('shows the first server field error on the name field', async () => {
    const { calls } = stubFetch([
      { url: '/api/v1/orgs/acme/exists', body: wire.exists(false) },
      {
        method: 'POST',
        url: '/api/v1/orgs',
        status: 400,
        body: wire.error({
          error: 'validation',
          message: 'Invalid request',
          errors: [
            { path: 'name', message: 'Name is reserved' },
            { path: 'name', message: 'Second message' },
          ],
        }),
      },
    ]);
    renderSignedIn(<CreateOrgPage />, { withContext: false });
    type('Acme');
    await pause();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Name is reserved')).toBeTruthy();
    expect(screen.queryByText('Second message')).toBeNull();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'acme' });
  });

  it('creates the organization, selects it and goes to the main layout', async () => {
    stubFetch([
      { url: '/api/v1/orgs/acme/exists', body: wire.exists(false) },
      { method: 'POST', url: '/api/v1/orgs', status: 201, body: wire.org('acme') },
    ]);
    const { url, refresh } = renderSignedIn(<CreateOrgPage />, {
      withContext: false,
      route: '/create-org',
      user: camel.user(),
    });
    type('Acme');
    await pause();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    });
    await vi.waitFor(() => expect(url()).toBe('/?org=acme'));
    expect(refresh).toHaveBeenCalled();
    expect(JSON.parse(window.localStorage.getItem('orrery.context') ?? '{}')).toEqual({
      org: 'acme',
    });
  });
});
