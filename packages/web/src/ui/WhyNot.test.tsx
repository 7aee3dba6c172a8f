import { Button } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useCan } from '../api/permissions';
import { stubFetch } from '../test/fetch';
import { expectWhyNot, permissionsOf } from '../test/permissions';
import { renderSignedIn } from '../test/render';
import { WhyNot } from './WhyNot';

const JOBS = 'job://default/acme/vision';
const ORG = 'org://acme';

/** Two pieces of one page, each asking its own question, as the areas do. */
function CreateJob() {
  const [can] = useCan([{ uri: JOBS, action: 'write' }]);
  return (
    <WhyNot can={can}>
      <Button>Create new job</Button>
    </WhyNot>
  );
}
function OrgSettings() {
  const [can] = useCan([{ uri: ORG, action: 'manage' }]);
  return (
    <WhyNot can={can} hide>
      <Button>Settings</Button>
    </WhyNot>
  );
}
const Page = () => (
  <>
    <CreateJob />
    <OrgSettings />
  </>
);

const disabled = (el: HTMLElement) => (el as HTMLButtonElement).disabled;
const checks = (calls: { url: string }[]) =>
  calls.filter((c) => c.url === '/api/v1/permissions/check');

describe('useCan and WhyNot', () => {
  it('disables a reader’s action with the server’s reason, and hides a managers-only one', async () => {
    const { calls } = stubFetch([
      permissionsOf([
        { prefix: 'job://default/acme/vision', have: 'read' },
        { prefix: ORG, have: 'read' },
      ]),
    ]);
    renderSignedIn(<Page />, { withContext: false });
    const create = await screen.findByRole('button', { name: 'Create new job' });
    await waitFor(() => expect(checks(calls)).toHaveLength(1));
    // One request for the whole page, both questions in it.
    expect(checks(calls)[0]).toMatchObject({
      method: 'POST',
      body: [
        { uri: JOBS, action: 'write' },
        { uri: ORG, action: 'manage' },
      ],
    });
    expect(disabled(create)).toBe(true);
    await expectWhyNot('Create new job', 'You have read access here; this needs write access');
    expect(screen.queryByRole('button', { name: 'Settings' })).toBeNull();
  });

  it('offers a writer the action and a manager the managers-only one', async () => {
    stubFetch([
      permissionsOf([
        { prefix: JOBS, have: 'write' },
        { prefix: ORG, have: 'manage' },
      ]),
    ]);
    renderSignedIn(<Page />, { withContext: false });
    expect(disabled(await screen.findByRole('button', { name: 'Settings' }))).toBe(false);
    expect(disabled(screen.getByRole('button', { name: 'Create new job' }))).toBe(false);
  });

  it('keeps the action disabled, saying why, when the check itself fails', async () => {
    stubFetch([
      {
        method: 'POST',
        url: '/api/v1/permissions/check',
        status: 503,
        body: { error: 'unavailable', message: 'Database unavailable' },
      },
    ]);
    renderSignedIn(<CreateJob />, { withContext: false });
    await expectWhyNot('Create new job', 'Database unavailable');
  });
});
