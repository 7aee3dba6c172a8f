import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Routes } from 'react-router';
import { stubFetch } from '../../../test/fetch';
import { renderSignedIn } from '../../../test/render';
import { signedIn } from '../test-fixtures';
import OpenJobPage from './OpenJobPage';

const KEY = 'dashboard--vision--acme';
const TICKET = `/api/v1/jobs/${KEY}/ingress-ticket?path=%2Freport%3Fday%3D1`;

const open = (route: string) =>
  renderSignedIn(
    <Routes>
      <Route path="/open-job" element={<OpenJobPage />} />
    </Routes>,
    { ...signedIn(), route },
  );

/**
 * Where a job's address sends a browser that is not signed in on the job's host: the console
 * asks for a ticket for that host, as Open does, and goes on; a refusal is shown in its words.
 */
describe('Open job page', () => {
  it('asks for a ticket for the key and the path, once, and goes to the address it answers', async () => {
    // The job's host is another origin; a same-document address stands in for it here.
    const there = `${window.location.origin}/#job-host`;
    const { calls } = stubFetch([{ method: 'POST', url: TICKET, body: { url: there } }]);
    open(`/open-job?key=${KEY}&path=${encodeURIComponent('/report?day=1')}`);
    expect(await screen.findByText(`Opening ${KEY}…`)).toBeTruthy();
    await waitFor(() => expect(window.location.href).toBe(there));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([TICKET]);
    window.location.hash = '';
  });

  it('shows the server’s refusal, with the way back to the jobs', async () => {
    stubFetch([
      {
        method: 'POST',
        url: `/api/v1/jobs/${KEY}/ingress-ticket`,
        status: 404,
        body: { error: 'not_found', message: `Job ${KEY} not found` },
      },
    ]);
    open(`/open-job?key=${KEY}`);
    expect(await screen.findByText('Could not open the job')).toBeTruthy();
    expect(screen.getByText(`Job ${KEY} not found`)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to jobs' })).toBeTruthy();
  });
});
