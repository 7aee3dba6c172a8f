import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { wire, world } from '../../test/fixtures';
import { stubFetch } from '../../test/fetch';
import { renderSignedIn } from '../../test/render';
import NewProjectPage from './NewProjectPage';

const EXISTS_URL = '/api/v1/projects/exists?cluster_name=default&org_name=acme&name=deep-vision';
const type = (value: string) =>
  fireEvent.change(screen.getByLabelText(/Project name/), { target: { value } });
const pause = async () => {
  await act(() => vi.advanceTimersByTimeAsync(500));
  vi.useRealTimers();
};
const renderPage = () => {
  const { user, sessionConfig } = world();
  // What the refresh after creation brings back: the new project among the user's projects.
  sessionConfig.projects?.push({
    name: 'deep-vision',
    orgName: 'acme',
    clusterName: 'default',
    role: 'admin',
  });
  return renderSignedIn(<NewProjectPage />, {
    user,
    sessionConfig,
    route: '/new-project?org=acme&cluster=default',
  });
};

describe('Create project', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));

  it('checks the name in the current organization and cluster after the pause', async () => {
    const { calls } = stubFetch([{ url: EXISTS_URL, body: wire.exists(true) }]);
    renderPage();
    type('Deep Vision');
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(calls.filter((c) => c.url.includes('/exists'))).toHaveLength(0);
    await pause();
    expect(await screen.findByText('Project with such name already exits')).toBeTruthy();
  });

  it('sends the normalised name, organization, cluster and the default role writer', async () => {
    const { calls } = stubFetch([
      { url: EXISTS_URL, body: wire.exists(false) },
      {
        method: 'POST',
        url: '/api/v1/projects',
        status: 201,
        body: wire.project('deep-vision', 'acme', 'default'),
      },
    ]);
    const { url } = renderPage();
    type('Deep Vision');
    await pause();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        name: 'deep-vision',
        org_name: 'acme',
        cluster_name: 'default',
        is_default: false,
        default_role: 'writer',
      }),
    );
    await vi.waitFor(() => expect(url()).toBe('/?org=acme&cluster=default&project=deep-vision'));
  });

  it('shows the first server field error on the name field', async () => {
    stubFetch([
      { url: EXISTS_URL, body: wire.exists(false) },
      {
        method: 'POST',
        url: '/api/v1/projects',
        status: 400,
        body: wire.error({
          error: 'validation',
          message: 'Invalid',
          errors: [{ path: 'name', message: 'Name too short' }],
        }),
      },
    ]);
    renderPage();
    type('Deep Vision');
    await pause();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Name too short')).toBeTruthy();
  });

  it('reports an unknown creation error as "Something went wrong"', async () => {
    stubFetch([
      { url: EXISTS_URL, body: wire.exists(false) },
      {
        method: 'POST',
        url: '/api/v1/projects',
        status: 500,
        body: wire.error({ error: 'internal', message: 'boom' }),
      },
    ]);
    renderPage();
    type('Deep Vision');
    await pause();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
  });

  it('says the cluster context is missing when the organization has no cluster', () => {
    const { user, sessionConfig } = world({ clusters: [] });
    stubFetch([]);
    renderSignedIn(<NewProjectPage />, {
      user,
      sessionConfig: { ...sessionConfig, clusters: [] },
      route: '/new-project?org=beta',
    });
    expect(screen.getByText('Missing cluster context')).toBeTruthy();
  });
});
