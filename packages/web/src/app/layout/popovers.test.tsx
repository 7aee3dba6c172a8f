import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { UserWire } from '@orrery/contract';
import { world } from '../../test/fixtures';
import { stubFetch, type CannedResponse } from '../../test/fetch';
import { permissionsOf } from '../../test/permissions';
import { renderSignedIn } from '../../test/render';
import { ProjectPopover } from './ProjectPopover';
import { UserPopover } from './UserPopover';

const openUserMenu = async (
  route: string,
  over: Partial<UserWire> = {},
  permissions: CannedResponse[] = [],
) => {
  const { user, sessionConfig } = world(over);
  const { calls } = stubFetch(permissions);
  const utils = renderSignedIn(<UserPopover />, { user, sessionConfig, route });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Alice Smith' })));
  return { ...utils, calls };
};
/** The permission engine's answer has come and was rendered (it settles within a macrotask). */
const answered = async (calls: unknown[]) => {
  await waitFor(() => expect(calls.length).toBe(1));
  await act(() => new Promise((done) => setTimeout(done, 0)));
};
const item = (name: string) => screen.queryByRole('menuitem', { name });

describe('user popover', () => {
  it('opens the keyboard shortcuts list, as ? does', async () => {
    const { user, sessionConfig } = world();
    stubFetch([]);
    const onShortcuts = vi.fn();
    renderSignedIn(<UserPopover onShortcuts={onShortcuts} />, { user, sessionConfig, route: '/' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Alice Smith' })));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Keyboard shortcuts' }));
    expect(onShortcuts).toHaveBeenCalledOnce();
  });

  it('shows Settings and Billing to organization managers, with context links', async () => {
    await openUserMenu('/?org=acme&cluster=default&project=vision');
    // Shown once the permission engine said the user manages the organization.
    expect((await screen.findByRole('menuitem', { name: 'Settings' })).getAttribute('href')).toBe(
      '/org-settings/general?org=acme&cluster=default&project=vision',
    );
    expect(item('Billing')).toBeTruthy();
    expect(item('People')).toBeTruthy();
    expect(item('Create new organization')).toBeTruthy();
    expect(screen.getByText('3 projects')).toBeTruthy();
    expect(screen.getByText('1 project')).toBeTruthy();
  });

  it('hides Settings and Billing from other members', async () => {
    const { calls } = await openUserMenu('/?org=beta', {}, [
      permissionsOf([{ prefix: 'org://beta', have: 'read' }]),
    ]);
    await answered(calls);
    expect(item('Settings')).toBeNull();
    expect(item('Billing')).toBeNull();
    expect(item('People')).toBeTruthy();
  });

  it('shows Administration only to users with a system role', async () => {
    await openUserMenu('/?org=acme');
    expect(item('Administration')).toBeNull();
  });

  it('shows Administration to a system admin', async () => {
    await openUserMenu('/?org=acme', { system_role: 'admin' });
    expect(item('Administration')?.getAttribute('href')).toMatch(/^\/admin\/users\?org=acme/);
  });

  it('hides the organization section from unverified users', async () => {
    await openUserMenu('/?org=acme', { email_verified: false });
    expect(screen.queryByText('Organizations')).toBeNull();
    expect(item('Settings')).toBeNull();
    expect(item('Log out')).toBeTruthy();
  });

  it('switches organization from the list', async () => {
    const { url } = await openUserMenu('/?org=acme');
    await act(async () => fireEvent.click(screen.getByRole('menuitem', { name: /beta/ })));
    expect(url()).toBe('/?org=beta&cluster=default&project=web');
  });
});

describe('project popover', () => {
  const openProjectMenu = async (route: string, permissions: CannedResponse[] = []) => {
    const { user, sessionConfig } = world();
    const { calls } = stubFetch(permissions);
    renderSignedIn(<ProjectPopover />, { user, sessionConfig, route });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^Project:/ })));
    await answered(calls);
  };

  it('shows Settings to project managers only', async () => {
    await openProjectMenu('/?org=acme&cluster=default&project=vision');
    expect(item('Settings')).toBeTruthy();
    expect(item('Create new project')?.getAttribute('href')).toBe(
      '/new-project?org=acme&cluster=default&project=vision',
    );
  });

  it('hides Settings from readers', async () => {
    await openProjectMenu('/?org=acme&cluster=default&project=nlp', [
      permissionsOf([{ prefix: 'project://default/acme/nlp', have: 'read' }]),
    ]);
    expect(item('Settings')).toBeNull();
    expect(item('People')).toBeTruthy();
    expect(item('vision')).toBeTruthy();
  });
});
