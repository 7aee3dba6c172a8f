import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Disk as DiskSchema, type DiskWire } from '@orrery/contract';
import { stubFetch } from '../../test/fetch';
import { expectOffered, expectWhyNot, permissionsOf } from '../../test/permissions';
import { world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import DisksPage from './DisksPage';

const LIST = '/api/v1/disk?cluster_name=default&org_name=acme&project_name=vision';
const ID = 'disk-0b8e1f9e-2a33-4c1b-9f5e-6d0c3a7b9e21';
const disk = (over: Partial<DiskWire> = {}) =>
  DiskSchema.parse({
    id: ID,
    storage: 10 ** 10,
    used_bytes: 1.5 * 10 ** 9,
    status: 'Ready',
    owner: 'alice',
    name: 'data',
    org_name: 'acme',
    project_name: 'vision',
    cluster_name: 'default',
    uri: `disk://default/acme/vision/${ID}`,
    created_at: '2026-01-02T03:04:05.000Z',
    last_usage: null,
    life_span: 93_780,
    ...over,
  });
const renderPage = () => {
  const { user, sessionConfig } = world();
  return renderSignedIn(<DisksPage />, {
    user,
    sessionConfig,
    route: '/disks?org=acme&cluster=default&project=vision',
  });
};

describe('Disks page', () => {
  it('keeps a project reader from creating or deleting, and says why', async () => {
    stubFetch([
      permissionsOf([{ prefix: 'disk://default/acme/vision', have: 'read' }]),
      { url: LIST, body: [disk()] },
    ]);
    renderPage();
    const why = 'You have read access here; this needs write access';
    await expectWhyNot('Create new disk', why);
    await expectWhyNot('Delete disk data', 'You have read access here; this needs manage access');
  });

  it('offers a writer Create, and Delete of the disks the server allows', async () => {
    stubFetch([
      permissionsOf([
        { prefix: `disk://default/acme/vision/${ID}`, have: 'manage' },
        { prefix: 'disk://default/acme/vision', have: 'write' },
      ]),
      { url: LIST, body: [disk()] },
    ]);
    renderPage();
    await expectOffered('Delete disk data');
    await expectOffered('Create new disk');
  });

  it('says "No disks found" when the project has none', async () => {
    stubFetch([{ url: LIST, body: [] }]);
    renderPage();
    expect(await screen.findByText('No disks found')).toBeTruthy();
  });

  it('lists disks with usage and opens the drawer with every detail', async () => {
    stubFetch([{ url: LIST, body: [disk()] }]);
    renderPage();
    const row = (await screen.findByText('data')).closest('tr')!;
    expect(within(row).getByText('1.5 GB / 10 GB')).toBeTruthy();
    expect(within(row).getByText('alice')).toBeTruthy();
    expect(within(row).getByText('Ready')).toBeTruthy();
    fireEvent.click(row);
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText(ID)).toBeTruthy();
    expect(within(drawer).getByText(`disk://default/acme/vision/${ID}`)).toBeTruthy();
    expect(within(drawer).getByText('1d 2h 3m')).toBeTruthy();
  });

  it('shows every rule of the new-disk dialog and sends bytes and seconds', async () => {
    const { calls } = stubFetch([
      { url: LIST, body: [] },
      { method: 'POST', url: '/api/v1/disk', status: 201, body: disk({ name: 'my-data' }) },
    ]);
    renderPage();
    await expectOffered('Create new disk');
    fireEvent.click(screen.getByRole('button', { name: 'Create new disk' }));
    const dialog = await screen.findByRole('dialog');
    const field = (label: RegExp) => within(dialog).getByLabelText(label);
    const submit = () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    fireEvent.change(field(/^Storage/), { target: { value: 'lots' } });
    fireEvent.change(field(/^Name/), { target: { value: 'x' } });
    fireEvent.change(field(/^Lifespan/), { target: { value: '2 days' } });
    submit();
    expect(await within(dialog).findByText('Storage must be a number')).toBeTruthy();
    expect(within(dialog).getByText('Invalid name')).toBeTruthy();
    expect(within(dialog).getByText('Invalid lifespan value')).toBeTruthy();
    fireEvent.change(field(/^Storage/), { target: { value: '-1' } });
    expect(await within(dialog).findByText('Storage must be positive')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST' && c.url === '/api/v1/disk')).toHaveLength(0);

    fireEvent.change(field(/^Storage/), { target: { value: '2' } });
    fireEvent.change(field(/^Name/), { target: { value: 'My Data' } });
    fireEvent.change(field(/^Lifespan/), { target: { value: '1d 2h' } });
    submit();
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.url === '/api/v1/disk')?.body).toEqual({
        storage: 2 * 10 ** 9,
        name: 'my-data',
        life_span: 93_600,
        cluster_name: 'default',
        org_name: 'acme',
        project_name: 'vision',
      }),
    );
  });

  it('shows the server’s field error on its field', async () => {
    stubFetch([
      { url: LIST, body: [] },
      {
        method: 'POST',
        url: '/api/v1/disk',
        status: 409,
        body: {
          error: 'conflict',
          message: 'Disk with name data already exists',
          errors: [{ path: 'name', message: 'Disk with name data already exists' }],
        },
      },
    ]);
    renderPage();
    await expectOffered('Create new disk');
    fireEvent.click(screen.getByRole('button', { name: 'Create new disk' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/^Storage/), { target: { value: '1' } });
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'data' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Disk with name data already exists')).toBeTruthy();
  });

  it('deletes a disk only after confirmation', async () => {
    const { calls } = stubFetch([
      { url: LIST, body: [disk()] },
      { method: 'DELETE', url: `/api/v1/disk/${ID}?${LIST.split('?')[1]}`, status: 204 },
    ]);
    renderPage();
    await expectOffered('Delete disk data');
    fireEvent.click(screen.getByRole('button', { name: 'Delete disk data' }));
    const dialog = await screen.findByRole('dialog');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
  });
});
