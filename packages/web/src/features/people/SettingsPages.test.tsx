import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch';
import { expectOffered, expectWhyNot, permissionsOf } from '../../test/permissions';
import { world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import { ClusterSettingsPage, OrgSettingsPage } from './SettingsPages';

const orgUser = (name: string, role: string, credits: string | null) => ({
  user_name: name,
  org_name: 'acme',
  role,
  balance: { credits, spent_credits: '0' },
  user_info: {
    email: `${name}@example.test`,
    first_name: name,
    last_name: null,
    created_at: '2026-01-01T00:00:00Z',
  },
});
const USERS = '/apis/admin/v1/orgs/acme/users?with_user_info=true';
const INVITES = '/apis/admin/v1/orgs/acme/invites';

const renderOrg = (
  role: 'manager' | 'user',
  route = '/org-settings/users?org=acme&cluster=default&project=vision',
) => {
  const { user, sessionConfig } = world({
    orgs: [{ name: 'acme', role, balance: { credits: null }, projects_count: 1 }],
  });
  return renderSignedIn(
    <Routes>
      <Route path="/org-settings/:tab?" element={<OrgSettingsPage />} />
    </Routes>,
    { user, sessionConfig, route },
  );
};

describe('settings pages', () => {
  it('shows organization managers general and users, with credits, edit and invite', async () => {
    const { calls } = stubFetch([
      { url: USERS, body: [orgUser('alice', 'manager', null), orgUser('bob', 'user', '40')] },
      { url: INVITES, body: [] },
      {
        method: 'PUT',
        url: '/apis/admin/v1/orgs/acme/users/bob',
        body: orgUser('bob', 'user', null),
      },
    ]);
    renderOrg('manager');
    expect(await screen.findByRole('tab', { name: 'General' })).toBeTruthy();
    const bob = (await screen.findByText('bob@example.test')).closest('tr')!;
    expect(within(bob).getByText('40')).toBeTruthy();
    expect(screen.getByText('Unlimited')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Invite user' }).hasAttribute('disabled')).toBe(
      false,
    );
    await expectOffered('Edit bob');
    fireEvent.click(screen.getByRole('button', { name: 'Edit bob' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/^Credits/), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('User bob is updated')).toBeTruthy();
    // Empty credits mean unlimited.
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      role: 'user',
      balance: { credits: null },
    });
  });

  it('shows other members only the users tab, without changes or invitations', async () => {
    stubFetch([
      permissionsOf([{ prefix: 'org://acme', have: 'read' }]),
      { url: USERS, body: [orgUser('alice', 'user', null)] },
    ]);
    const { url } = renderOrg(
      'user',
      '/org-settings/general?org=acme&cluster=default&project=vision',
    );
    await screen.findByText('alice@example.test');
    expect(url()).toMatch(/^\/org-settings\/users\?/);
    expect(screen.queryByRole('tab', { name: 'General' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Invite user' }).hasAttribute('disabled')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Edit alice' })).toBeNull();
  });

  it('keeps an organization manager from editing or removing its admin, saying why', async () => {
    const onlyAdmins = 'Only an organization admin may give or change the admin role';
    stubFetch([
      permissionsOf([
        { prefix: 'org://acme/users/root', deny: onlyAdmins },
        { prefix: 'org://acme', have: 'manage' },
      ]),
      { url: USERS, body: [orgUser('root', 'admin', null), orgUser('bob', 'user', null)] },
      { url: INVITES, body: [] },
    ]);
    renderOrg('manager');
    await expectWhyNot('Edit root', onlyAdmins);
    await expectWhyNot('Remove root', onlyAdmins);
    await expectOffered('Edit bob');
    await expectOffered('Remove bob');
  });

  it('adds a platform user found by two characters, with a role and credits', async () => {
    const { calls } = stubFetch([
      { url: USERS, body: [orgUser('alice', 'manager', null)] },
      { url: INVITES, body: [] },
      {
        url: /\/apis\/admin\/v1\/users\?lookup=true&query=bo$/,
        body: [{ name: 'bob', email: 'bob@example.test' }],
      },
      {
        method: 'POST',
        url: '/apis/admin/v1/orgs/acme/users',
        status: 201,
        body: orgUser('bob', 'user', '5'),
      },
    ]);
    renderOrg('manager');
    await screen.findByText('alice@example.test');
    await expectOffered('Add user');
    fireEvent.click(screen.getByRole('button', { name: 'Add user' }));
    const dialog = await screen.findByRole('dialog');
    const add = within(dialog).getByRole('button', { name: 'Add' });
    expect(add.hasAttribute('disabled')).toBe(true);
    const search = within(dialog).getByRole('combobox', { name: 'User' });
    fireEvent.change(search, { target: { value: 'b' } });
    expect(await screen.findByText('Type at least 2 characters')).toBeTruthy();
    fireEvent.change(search, { target: { value: 'bo' } });
    fireEvent.click(await screen.findByRole('option', { name: 'bob (bob@example.test)' }));
    fireEvent.change(within(dialog).getByLabelText(/^Credits/), { target: { value: '5' } });
    fireEvent.click(add);
    expect(await screen.findByText('User bob is updated')).toBeTruthy();
    expect(
      calls.find((c) => c.method === 'POST' && c.url === '/apis/admin/v1/orgs/acme/users')?.body,
    ).toEqual({
      user_name: 'bob',
      role: 'user',
      balance: { credits: '5' },
    });
  });

  it('says no one is in the organization with the empty-list text', async () => {
    stubFetch([
      { url: USERS, body: [] },
      { url: INVITES, body: [] },
    ]);
    renderOrg('manager');
    expect(await screen.findByText('No users found in acme organization')).toBeTruthy();
  });

  it('gives cluster general settings only to cluster or tenant managers', async () => {
    stubFetch([
      permissionsOf([{ prefix: 'org://acme', have: 'read' }]),
      { url: /\/clusters\/default\/orgs\/acme\/users/, body: [] },
    ]);
    const { user, sessionConfig } = world({
      orgs: [{ name: 'acme', role: 'user', balance: { credits: null }, projects_count: 1 }],
    });
    renderSignedIn(
      <Routes>
        <Route path="/cluster-settings/:tab?" element={<ClusterSettingsPage />} />
      </Routes>,
      {
        user,
        sessionConfig,
        route: '/cluster-settings/general?org=acme&cluster=default&project=vision',
      },
    );
    expect(await screen.findByText('No users found in default cluster')).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'General' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add user' })).toBeNull();
  });

  it('lists the organization members who may use the cluster, through the organization', async () => {
    const CLUSTER_USERS = '/apis/admin/v1/clusters/default/orgs/acme/users';
    const { calls } = stubFetch([
      permissionsOf([{ prefix: 'org://acme', have: 'manage' }]),
      {
        url: `${CLUSTER_USERS}?with_user_info=true`,
        body: [{ ...orgUser('alice', 'manager', null), cluster_name: 'default' }],
      },
      { url: USERS, body: [orgUser('alice', 'manager', null), orgUser('bob', 'user', null)] },
      { method: 'POST', url: CLUSTER_USERS, status: 201, body: {} },
    ]);
    const { user, sessionConfig } = world({
      orgs: [{ name: 'acme', role: 'manager', balance: { credits: null }, projects_count: 1 }],
    });
    renderSignedIn(
      <Routes>
        <Route path="/cluster-settings/:tab?" element={<ClusterSettingsPage />} />
      </Routes>,
      { user, sessionConfig, route: '/cluster-settings/users?org=acme&cluster=default' },
    );
    const bob = (await screen.findByText('bob@example.test')).closest('tr')!;
    expect(bob.textContent).toContain('user (through the organization)');
    const alice = screen.getByText('alice@example.test').closest('tr')!;
    expect(alice.textContent).not.toContain('through the organization');
    // Nothing to remove of a member through the organization; editing gives a role of their own.
    expect(within(bob).queryByRole('button', { name: 'Remove bob' })).toBeNull();
    await expectOffered('Remove alice');
    fireEvent.click(within(bob).getByRole('button', { name: 'Edit bob' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('User bob is updated');
    expect(calls.find((c) => c.method === 'POST' && c.url === CLUSTER_USERS)?.body).toEqual({
      user_name: 'bob',
      role: 'user',
    });
  });
});
