import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch, type CannedResponse } from '../../test/fetch';
import { expectWhyNot, permissionsOf } from '../../test/permissions';
import { renderSignedIn } from '../../test/render';
import { jobWire, ROUTE_QUERY, signedIn } from '../jobs/test-fixtures';
import HomePage from './HomePage';

const LIST = /^\/api\/v1\/jobs\?/;

function renderHome(jobs = [jobWire()], extra: CannedResponse[] = []) {
  const fetch = stubFetch([...extra, { url: LIST, body: { jobs } }]);
  renderSignedIn(<HomePage />, { ...signedIn(), route: `/?${ROUTE_QUERY}` });
  return fetch;
}

describe('Home page', () => {
  it("lists the project's latest jobs by name, each linked to its page", async () => {
    renderHome([
      jobWire({ id: 'job-2', name: 'train' }),
      jobWire({ id: 'job-1', name: undefined, status: 'failed' }),
    ]);
    const recent = await screen.findByRole('region', { name: 'Recent jobs' });
    const train = await within(recent).findByRole('link', { name: 'train' });
    expect(train.getAttribute('href')).toBe(`/jobs/job-2?${ROUTE_QUERY}`);
    expect(within(recent).getByRole('link', { name: 'job-1' })).toBeTruthy();
    expect(within(recent).getByText('failed')).toBeTruthy();
    expect(within(recent).getByRole('link', { name: 'All jobs' })).toBeTruthy();
  });

  it('tells a new project how to run its first job, and offers Create new job', async () => {
    renderHome([]);
    expect(await screen.findByText('No jobs in this project yet')).toBeTruthy();
    const create = await screen.findByRole('link', { name: 'Create new job' });
    expect(create.getAttribute('href')).toBe(`/jobs/new?${ROUTE_QUERY}`);
  });

  it('shows a reader why they cannot create a job', async () => {
    renderHome([], [permissionsOf([{ prefix: 'job://default/acme/vision', have: 'read' }])]);
    await screen.findByText('No jobs in this project yet');
    await expectWhyNot('Create new job', 'You have read access here; this needs write access');
  });

  it('shows what the user can still spend in the organization', async () => {
    renderHome();
    const credits = await screen.findByRole('region', { name: 'Credits' });
    expect(within(credits).getByText('1,234.5')).toBeTruthy();
    expect(within(credits).getByText('What you can still spend in acme')).toBeTruthy();
  });
});
