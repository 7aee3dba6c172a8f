import { act, fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Bucket as BucketSchema,
  ErrorBody,
  PersistentCredentials as CredentialsSchema,
  type BucketWire,
  type PersistentCredentialsWire,
} from '@orrery/contract';
import { stubFetch, type CannedResponse } from '../../test/fetch';
import { findEnabled, worldPermissions } from '../../test/world-permissions';
import { expectWhyNot } from '../../test/permissions';
import { world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import BucketsPage from './BucketsPage';

const SCOPE = 'cluster_name=default&org_name=acme&project_name=vision';
const LIST = `/api/v1/buckets/buckets?${SCOPE}`;
const CREDENTIALS = `/api/v1/buckets/persistent_credentials?${SCOPE}`;
const ID = 'bucket-0b8e1f9e-2a33-4c1b-9f5e-6d0c3a7b9e21';
const GCP_ID = 'bucket-7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

const bucket = (over: Partial<BucketWire> = {}) =>
  BucketSchema.parse({
    id: ID,
    name: 'datasets',
    owner: 'alice',
    org_name: 'acme',
    project_name: 'vision',
    cluster_name: 'default',
    provider: 'minio',
    created_at: '2026-01-02T03:04:05.000Z',
    imported: false,
    public: false,
    uri: 'blob://default/acme/vision/datasets',
    ...over,
  });
const gcp = () =>
  bucket({
    id: GCP_ID,
    name: 'archive',
    provider: 'gcp',
    imported: true,
    uri: 'blob://default/acme/vision/archive',
  });
const credentials = (over: Partial<PersistentCredentialsWire> = {}) =>
  CredentialsSchema.parse({
    id: 'bucket-credentials-1',
    name: 'training-reader',
    owner: 'alice',
    org_name: 'acme',
    project_name: 'vision',
    cluster_name: 'default',
    read_only: true,
    bucket_ids: [ID],
    credentials: [],
    ...over,
  });
const error = (status: number, message: string, path?: string): CannedResponse['body'] =>
  ErrorBody.parse({
    error: status === 409 ? 'conflict' : 'unprocessable',
    message,
    ...(path ? { errors: [{ path, message }] } : {}),
  });

const renderPage = (route = `/buckets?org=acme&cluster=default&project=vision`) => {
  const { user, sessionConfig } = world();
  return renderSignedIn(
    <Routes>
      <Route path="/buckets/*" element={<BucketsPage />} />
    </Routes>,
    { user, sessionConfig, route },
  );
};

afterEach(() => {
  vi.useRealTimers();
});

describe('Buckets page', () => {
  it('says "No buckets found" when the project has none', async () => {
    stubFetch([worldPermissions(), { url: LIST, body: [] }]);
    renderPage();
    expect(await screen.findByText('No buckets found')).toBeTruthy();
  });

  it('filters the cards by the search, 400 ms after typing', async () => {
    stubFetch([worldPermissions(), { url: LIST, body: [bucket(), gcp()] }]);
    renderPage();
    expect(await screen.findByRole('button', { name: 'Bucket datasets' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'MinIO / S3' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Google Cloud Storage' })).toBeTruthy();
    vi.useFakeTimers();
    fireEvent.change(screen.getByLabelText('Search buckets'), { target: { value: 'ARCH' } });
    act(() => vi.advanceTimersByTime(399));
    expect(screen.queryByRole('button', { name: 'Bucket datasets' })).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('button', { name: 'Bucket datasets' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Bucket archive' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search buckets'), { target: { value: 'nothing' } });
    act(() => vi.advanceTimersByTime(400));
    expect(screen.getByText('No buckets found')).toBeTruthy();
  });

  it('opens the drawer on one click, with credentials and details', async () => {
    stubFetch([
      worldPermissions(),
      { url: LIST, body: [bucket()] },
      {
        url: CREDENTIALS,
        body: [credentials(), credentials({ id: 'other', name: 'other', bucket_ids: ['x'] })],
      },
    ]);
    const { url } = renderPage();
    const card = await screen.findByRole('button', { name: 'Bucket datasets' });
    vi.useFakeTimers();
    fireEvent.click(card);
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => vi.advanceTimersByTime(200));
    vi.useRealTimers();
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText(ID)).toBeTruthy();
    expect(within(drawer).getByText('alice')).toBeTruthy();
    expect(within(drawer).getByText('MinIO / S3')).toBeTruthy();
    expect(within(drawer).getByText('No')).toBeTruthy();
    expect(await within(drawer).findByText('training-reader')).toBeTruthy();
    expect(within(drawer).getByText('read-only')).toBeTruthy();
    expect(within(drawer).queryByText('other')).toBeNull();
    expect(url()).toBe('/buckets?org=acme&cluster=default&project=vision');
  });

  it('opens the bucket’s page on a double click inside 200 ms', async () => {
    stubFetch([
      worldPermissions(),
      { url: LIST, body: [bucket()] },
      { url: `/api/v1/buckets/buckets/${ID}?${SCOPE}`, body: bucket() },
      {
        url: `/api/v1/buckets/buckets/datasets/objects?${SCOPE}&prefix=&delimiter=%2F`,
        body: {
          prefix: '',
          folders: [],
          objects: [],
          next_continuation_token: null,
          permission: 'manage',
        },
      },
    ]);
    const { url } = renderPage();
    const card = await screen.findByRole('button', { name: 'Bucket datasets' });
    vi.useFakeTimers();
    fireEvent.click(card);
    act(() => vi.advanceTimersByTime(150));
    fireEvent.click(card);
    act(() => vi.advanceTimersByTime(300));
    vi.useRealTimers();
    expect(url()).toBe(`/buckets/${ID}/datasets?org=acme&cluster=default&project=vision`);
    expect(await screen.findByText('This bucket is empty')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the no-S3 error on a double click of a gcp bucket', async () => {
    stubFetch([worldPermissions(), { url: LIST, body: [gcp()] }]);
    const { url } = renderPage();
    const card = await screen.findByRole('button', { name: 'Bucket archive' });
    vi.useFakeTimers();
    fireEvent.click(card);
    fireEvent.click(card);
    act(() => vi.advanceTimersByTime(300));
    vi.useRealTimers();
    expect(
      await screen.findByText('Buckets created with "gcp" cannot be viewed in the web UI'),
    ).toBeTruthy();
    expect(url()).toBe('/buckets?org=acme&cluster=default&project=vision');
  });

  it('shows the new credentials’ keys once, with copy buttons, and forgets them on Done', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const keys = {
      bucket_name: 'acme-vision-datasets-1a2b3c4d',
      endpoint_url: 'https://orrery.example.com/s3',
      region_name: 'us-east-1',
      access_key_id: 'bucket-credentials-1',
      secret_access_key: 'the-secret-shown-once',
    };
    const { calls } = stubFetch([
      worldPermissions(),
      { url: LIST, body: [bucket()] },
      // Lists never carry keys: only where the bucket is.
      { url: CREDENTIALS, body: [] },
      {
        method: 'POST',
        url: CREDENTIALS,
        status: 201,
        body: credentials({
          name: 'writer',
          read_only: false,
          credentials: [{ bucket_id: ID, provider: 'minio', credentials: keys }],
        }),
      },
    ]);
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Bucket datasets' }));
    const drawer = await screen.findByRole('dialog');
    fireEvent.click(await findEnabled('Create credentials', within(drawer)));
    const dialog = await screen.findByRole('dialog', { name: 'Create credentials' });
    expect(within(dialog).getByRole('combobox', { name: 'Bucket' })).toHaveProperty(
      'value',
      'datasets',
    );
    const submit = () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    submit();
    expect(await within(dialog).findByText('Name must be at least 1 character')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && !c.url.includes('/permissions/'))).toBe(false);
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'writer' } });
    await vi.waitFor(() =>
      expect(within(dialog).getByLabelText('Read-write')).toHaveProperty('disabled', false),
    );
    fireEvent.click(within(dialog).getByLabelText('Read-write'));
    submit();
    expect(await screen.findByText('Bucket credentials writer was created')).toBeTruthy();
    expect(
      calls.find((c) => c.method === 'POST' && !c.url.includes('/permissions/'))?.body,
    ).toEqual({
      name: 'writer',
      bucket_ids: [ID],
      read_only: false,
    });
    // Everything an S3 client needs, once, with the warning that it will not be shown again.
    const shown = await within(dialog).findByRole('group', { name: 'Keys for bucket datasets' });
    expect(within(dialog).getByText(/shown only once/)).toBeTruthy();
    for (const [label, value] of [
      ['Endpoint URL', keys.endpoint_url],
      ['Bucket name', keys.bucket_name],
      ['Region', keys.region_name],
      ['Access key ID', keys.access_key_id],
      ['Secret access key', keys.secret_access_key],
    ]) {
      expect(within(shown).getByLabelText(label)).toHaveProperty('value', value);
      await act(async () => {
        fireEvent.click(within(shown).getByRole('button', { name: `Copy ${label}` }));
      });
      expect(writeText).toHaveBeenLastCalledWith(value);
    }
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await vi.waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Create credentials' })).toBeNull(),
    );
    expect(screen.queryByDisplayValue(keys.secret_access_key)).toBeNull();
    // Opened again, the dialog asks for new credentials: the keys are gone.
    fireEvent.click(await findEnabled('Create credentials', within(drawer)));
    const again = await screen.findByRole('dialog', { name: 'Create credentials' });
    expect(within(again).getByLabelText(/^Name/)).toHaveProperty('value', '');
    expect(screen.queryByDisplayValue(keys.secret_access_key)).toBeNull();
  });

  it('offers a reader read-only credentials, and read-write ones disabled with the reason', async () => {
    const { calls } = stubFetch([
      worldPermissions([{ name: 'vision', org: 'acme', cluster: 'default', role: 'reader' }]),
      { url: LIST, body: [bucket(), bucket({ id: GCP_ID, name: 'archive', imported: true })] },
      { url: CREDENTIALS, body: [] },
      {
        method: 'POST',
        url: CREDENTIALS,
        status: 201,
        body: credentials({ name: 'mine', read_only: true }),
      },
    ]);
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Bucket datasets' }));
    const drawer = await screen.findByRole('dialog');
    // Not for deleting the bucket, but for keys that only read it.
    await expectWhyNot(
      'Delete bucket datasets',
      'You have read access here; this needs write access',
    );
    fireEvent.click(await findEnabled('Create credentials', within(drawer)));
    const dialog = await screen.findByRole('dialog', { name: 'Create credentials' });
    expect(
      await within(dialog).findByText(
        'Read-write credentials need write access to this bucket. You have read access here; this needs write access',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByLabelText('Read-write')).toHaveProperty('disabled', true);
    // An imported bucket's keys are its provider's, which write: not for a reader at all.
    fireEvent.click(within(dialog).getByRole('combobox', { name: 'Bucket' }));
    fireEvent.click(await screen.findByRole('option', { name: 'archive' }));
    expect(await within(dialog).findByText(/carry the keys it was imported with/)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Create' })).toHaveProperty('disabled', true);
    fireEvent.click(within(dialog).getByRole('combobox', { name: 'Bucket' }));
    fireEvent.click(await screen.findByRole('option', { name: 'datasets' }));
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'mine' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Bucket credentials mine was created')).toBeTruthy();
    expect(
      calls.find((c) => c.method === 'POST' && !c.url.includes('/permissions/'))?.body,
    ).toEqual({ name: 'mine', bucket_ids: [ID], read_only: true });
  });

  it('shows the server’s 422 message for credentials to a bucket Orrery made', async () => {
    const message = 'Set ORRERY_S3_SHARE_KEYS=true only for a single-tenant deployment.';
    stubFetch([
      worldPermissions(),
      { url: LIST, body: [bucket()] },
      { url: CREDENTIALS, body: [] },
      { method: 'POST', url: CREDENTIALS, status: 422, body: error(422, message, 'bucket_ids') },
    ]);
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Bucket datasets' }));
    const drawer = await screen.findByRole('dialog');
    fireEvent.click(await findEnabled('Create credentials', within(drawer)));
    const dialog = await screen.findByRole('dialog', { name: 'Create credentials' });
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'keys' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(message)).toBeTruthy();
  });

  it('checks the bucket name and shows the server’s message when creating fails', async () => {
    const message = 'Project not found';
    const { calls } = stubFetch([
      worldPermissions(),
      { url: LIST, body: [] },
      { method: 'POST', url: '/api/v1/buckets/buckets', status: 404, body: error(404, message) },
    ]);
    renderPage();
    fireEvent.click(await findEnabled('Create bucket'));
    const dialog = await screen.findByRole('dialog', { name: 'Create bucket' });
    const name = within(dialog).getByLabelText(/^Name/);
    const submit = () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    fireEvent.change(name, { target: { value: 'Bad_Name' } });
    submit();
    expect(await within(dialog).findByText('Invalid name')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'ab' } });
    expect(await within(dialog).findByText('Bucket name must be 3 to 40 characters')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && !c.url.includes('/permissions/'))).toBe(false);
    fireEvent.change(name, { target: { value: 'raw-data' } });
    submit();
    expect(await within(dialog).findByText(message)).toBeTruthy();
    expect(
      calls.find((c) => c.method === 'POST' && !c.url.includes('/permissions/'))?.body,
    ).toEqual({
      name: 'raw-data',
      cluster_name: 'default',
      org_name: 'acme',
      project_name: 'vision',
    });
  });

  it('puts a taken name on the name field', async () => {
    const message = 'Bucket with name raw already exists';
    stubFetch([
      worldPermissions(),
      { url: LIST, body: [] },
      {
        method: 'POST',
        url: '/api/v1/buckets/buckets',
        status: 409,
        body: error(409, message, 'name'),
      },
    ]);
    renderPage();
    fireEvent.click(await findEnabled('Create bucket'));
    const dialog = await screen.findByRole('dialog', { name: 'Create bucket' });
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'raw' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(message)).toBeTruthy();
    expect(within(dialog).getByLabelText(/^Name/).getAttribute('aria-invalid')).toBe('true');
  });

  it('deletes a bucket only after confirmation', async () => {
    const { calls } = stubFetch([
      worldPermissions(),
      { url: LIST, body: [bucket()] },
      { url: CREDENTIALS, body: [] },
      { method: 'DELETE', url: `/api/v1/buckets/buckets/${ID}?${SCOPE}`, status: 204 },
    ]);
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Bucket datasets' }));
    fireEvent.click(await findEnabled('Delete bucket datasets'));
    const dialog = await screen.findByRole('dialog', { name: 'Delete bucket' });
    expect(within(dialog).getByText(/every object in it will be deleted/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
  });
});
