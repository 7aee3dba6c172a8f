import { fireEvent, screen, within } from '@testing-library/react';
import { Secret } from '@orrery/contract';
import { describe, expect, it, vi } from 'vitest';
import { wire, world } from '../../test/fixtures';
import { stubFetch } from '../../test/fetch';
import { expectWhyNot } from '../../test/permissions';
import { findEnabled, worldPermissions } from '../../test/world-permissions';
import { renderSignedIn } from '../../test/render';
import SecretsPage from './SecretsPage';

const LIST = (project: string) =>
  `/api/v1/secrets?cluster_name=default&org_name=acme&project_name=${project}`;
const secret = (key: string, project = 'vision') =>
  Secret.parse({ key, org_name: 'acme', project_name: project, owner: 'alice' });

/** vision: the user is its manager; nlp: a reader (test/fixtures `world`). */
const renderPage = (project = 'vision', extra = '') => {
  const { user, sessionConfig } = world();
  return renderSignedIn(<SecretsPage />, {
    user,
    sessionConfig,
    route: `/secrets?org=acme&cluster=default&project=${project}${extra}`,
  });
};
const dialog = () => within(screen.getByRole('dialog'));
const typeIn = (label: RegExp, value: string) =>
  fireEvent.change(dialog().getByLabelText(label), { target: { value } });

describe('Secrets page', () => {
  it('says "No secrets found" and offers creation to a manager', async () => {
    stubFetch([worldPermissions(), { url: LIST('vision'), body: [] }]);
    renderPage();
    expect(await screen.findByText('No secrets found')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create secret' })).toBeTruthy();
  });

  it('lists keys and owners, Create and Delete disabled with the reason for a reader', async () => {
    stubFetch([worldPermissions(), { url: LIST('nlp'), body: [secret('API_TOKEN', 'nlp')] }]);
    renderPage('nlp', '&create=1');
    expect(await screen.findByText('API_TOKEN')).toBeTruthy();
    expect(screen.getByText('alice')).toBeTruthy();
    await expectWhyNot('Create secret', 'You have read access here; this needs manage access');
    expect(screen.getByRole('button', { name: /Delete secret/ })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('tells a reader with no secrets that managers create them', async () => {
    stubFetch([worldPermissions(), { url: LIST('nlp'), body: [] }]);
    renderPage('nlp');
    expect(await screen.findByText('Only project managers can create secrets.')).toBeTruthy();
  });

  it('opens with ?create=1, requires key and value, removes spaces and sends base64', async () => {
    const { calls } = stubFetch([
      worldPermissions(),
      { url: LIST('vision'), body: [] },
      { method: 'POST', url: '/api/v1/secrets', status: 201, body: secret('mykey1') },
    ]);
    const { url } = renderPage('vision', '&create=1');
    await screen.findByRole('dialog');
    fireEvent.click(dialog().getByRole('button', { name: 'Create secret' }));
    expect(dialog().getByText('Key is required')).toBeTruthy();
    expect(dialog().getByText('Value is required')).toBeTruthy();
    expect(calls.filter((c) => c.url === '/api/v1/secrets')).toHaveLength(0);

    typeIn(/Key/, 'my key 1');
    expect((dialog().getByLabelText(/Key/) as HTMLInputElement).value).toBe('mykey1');
    typeIn(/Value/, 'pässword');
    fireEvent.click(dialog().getByRole('button', { name: 'Create secret' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.url === '/api/v1/secrets')?.body).toEqual({
        cluster_name: 'default',
        org_name: 'acme',
        project_name: 'vision',
        key: 'mykey1',
        value: Buffer.from('pässword').toString('base64'),
      }),
    );
    expect(await screen.findByText('The secret is created')).toBeTruthy();
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(url()).not.toContain('create=1');
  });

  it('checks the key before sending', async () => {
    const { calls } = stubFetch([worldPermissions(), { url: LIST('vision'), body: [] }]);
    renderPage('vision', '&create=1');
    await screen.findByRole('dialog');
    typeIn(/Key/, '.hidden');
    typeIn(/Value/, 'v');
    fireEvent.click(dialog().getByRole('button', { name: 'Create secret' }));
    expect(dialog().getByText('Secret key must not start with "."')).toBeTruthy();
    typeIn(/Key/, '---neuro---');
    fireEvent.click(dialog().getByRole('button', { name: 'Create secret' }));
    expect(dialog().getByText('Secret key ---neuro--- is reserved')).toBeTruthy();
    expect(calls.filter((c) => c.url === '/api/v1/secrets')).toHaveLength(0);
  });

  it('shows a taken key on the key field', async () => {
    stubFetch([
      worldPermissions(),
      { url: LIST('vision'), body: [secret('dup')] },
      {
        method: 'POST',
        url: '/api/v1/secrets',
        status: 409,
        body: wire.error({
          error: 'conflict',
          message: 'Secret dup already exists',
          errors: [{ path: 'key', message: 'Secret dup already exists' }],
        }),
      },
    ]);
    renderPage();
    fireEvent.click(await findEnabled('Create secret'));
    typeIn(/Key/, 'dup');
    typeIn(/Value/, 'v');
    fireEvent.click(dialog().getByRole('button', { name: 'Create secret' }));
    expect(await dialog().findByText('Secret dup already exists')).toBeTruthy();
  });

  it('deletes after confirmation', async () => {
    const { calls } = stubFetch([
      worldPermissions(),
      { url: LIST('vision'), body: [secret('old-token')] },
      { method: 'DELETE', url: /\/api\/v1\/secrets\/old-token\?/, status: 204 },
    ]);
    renderPage();
    fireEvent.click(await findEnabled('Delete secret old-token'));
    expect(dialog().getByText(/Delete secret old-token\?/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    fireEvent.click(dialog().getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'DELETE')?.url).toBe(
        '/api/v1/secrets/old-token?cluster_name=default&org_name=acme&project_name=vision',
      ),
    );
    expect(await screen.findByText('The secret is deleted')).toBeTruthy();
  });
});
