import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch';
import { renderSignedIn } from '../../test/render';
import { world } from '../../test/fixtures';
import { PlanCard } from './PlanCard';
import { plan } from './test-support';

const CONFIRM = '/api/v1/copilot/plans/plan-1/confirm';

function show(p = plan()) {
  const { user, sessionConfig } = world();
  return renderSignedIn(<PlanCard plan={p} />, {
    user,
    sessionConfig,
    route: '/?org=acme&cluster=default&project=vision',
  });
}

describe('plan card', () => {
  it('shows the exact call, the context and the cost per hour', () => {
    stubFetch([]);
    show(
      plan({
        title: 'Install jupyter in vision',
        call: {
          method: 'POST',
          path: '/apis/apps/v2/instances',
          body: { template_name: 'jupyter' },
        },
        credits_per_hour: '1.50',
      }),
    );
    const card = screen.getByRole('group', { name: 'Install jupyter in vision' });
    expect(card.textContent).toContain('POST /apis/apps/v2/instances');
    expect(card.textContent).toContain('"template_name": "jupyter"');
    expect(card.textContent).toContain('default / acme / vision');
    expect(card.textContent).toContain('1.50 credits per hour');
  });

  it('does nothing until Confirm, then sends the one-time confirmation and shows the outcome', async () => {
    const { calls } = stubFetch([
      {
        method: 'POST',
        url: CONFIRM,
        body: { status: 'done', message: 'Job train-7 is being killed', url: '/jobs/job-7' },
      },
    ]);
    show();
    expect(calls).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Job train-7 is being killed')).toBeTruthy();
    expect(calls).toMatchObject([
      { method: 'POST', url: CONFIRM, body: { confirmation: 'once-abc' } },
    ]);
    expect(screen.getByRole('link', { name: 'Open' }).getAttribute('href')).toBe(
      '/jobs/job-7?org=acme&cluster=default&project=vision',
    );
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
  });

  it("shows the server's message when the confirmation is refused", async () => {
    stubFetch([
      {
        method: 'POST',
        url: CONFIRM,
        status: 409,
        body: { error: 'conflict', message: 'This plan was already confirmed' },
      },
    ]);
    show();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This plan was already confirmed');
  });

  it('dismisses without any call', async () => {
    const { calls } = stubFetch([]);
    show();
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.getByText('Dismissed: nothing was changed.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
    expect(calls).toEqual([]);
  });

  it('disables Confirm on an expired plan and says why', () => {
    stubFetch([]);
    show(plan({ expires_at: new Date(Date.now() - 1000).toISOString() }));
    const card = screen.getByRole('group', { name: 'Kill job train-7' });
    expect(within(card).getByRole('button', { name: 'Confirm' })).toHaveProperty('disabled', true);
    expect(within(card).getByText('This plan has expired; ask again for a new one.')).toBeTruthy();
  });
});
