import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Budget } from '@orrery/contract';
import type { OrgRole } from '@orrery/contract';
import { B, renderBilling } from '../test-fixtures';
import { BudgetBanner } from './BudgetBanner';
import { BudgetsSection } from './BudgetsSection';

const budget = (over: Partial<Budget> = {}): Budget => ({
  org_name: 'acme',
  project_name: null,
  credits: '500.0000',
  thresholds: [50, 90, 100],
  period: '2026-11',
  spent: '460.0000',
  percent: 92,
  crossed: 90,
  ...over,
});

const LIST = `${B}/orgs/acme/budgets`;
const ALERTS = `${B}/orgs/acme/budget_alerts`;

describe('budget settings', () => {
  const section = (extra: Parameters<typeof renderBilling>[1] = []) =>
    renderBilling(<BudgetsSection org="acme" projects={['nlp', 'ops', 'vision']} />, [
      ...extra,
      { url: LIST, body: { items: [budget()] } },
    ]);

  it("shows the month's spend against each budget, and offers a budget for every project", async () => {
    section();
    const table = await screen.findByRole('table', { name: 'Budgets' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Organization',
      'Project nlp',
      'Project ops',
      'Project vision',
    ]);
    expect(within(rows[0]!).getByText('460 of 500 credits (92%)')).toBeTruthy();
    const bar = within(rows[0]!).getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('92');
    expect(within(rows[1]!).getByText('No budget')).toBeTruthy();
    expect(within(rows[1]!).getByRole('button', { name: 'Set budget' })).toBeTruthy();
    expect(within(rows[0]!).getByRole('button', { name: 'Edit' })).toBeTruthy();
  });

  it('sets a project budget with its thresholds, and shows the server refusal on its field', async () => {
    const { calls } = section([
      {
        method: 'PUT',
        url: `${LIST}/vision`,
        status: 400,
        body: {
          error: 'validation',
          message: 'Thresholds must be in increasing order, each given once',
          errors: [
            {
              path: 'thresholds',
              message: 'Thresholds must be in increasing order, each given once',
            },
          ],
        },
      },
    ]);
    const table = await screen.findByRole('table', { name: 'Budgets' });
    const vision = within(table).getAllByRole('row')[3]!;
    await userEvent.click(within(vision).getByRole('button', { name: 'Set budget' }));
    const dialog = await screen.findByRole('dialog', { name: 'Budget of vision (acme)' });
    const thresholds = within(dialog).getByLabelText(/Alert thresholds/) as HTMLInputElement;
    expect(thresholds.value).toBe('50, 90, 100');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('Budget must be a positive number of credits'),
    ).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/Monthly budget/), '250');
    await userEvent.clear(thresholds);
    await userEvent.type(thresholds, '90, 50');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('Thresholds must be in increasing order, each given once'),
    ).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.url).toBe(`${LIST}/vision`);
    expect(put.body).toEqual({ credits: 250, thresholds: [90, 50] });
  });

  it('removes a budget after confirmation', async () => {
    const { calls } = section([{ method: 'DELETE', url: LIST, status: 204 }]);
    const table = await screen.findByRole('table', { name: 'Budgets' });
    await userEvent.click(within(table).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the budget of acme?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')!.url).toBe(LIST);
  });
});

/** The banner's alert (notifications of earlier tests are alerts too). */
const bannerAlert = async () =>
  (await screen.findByText(/has used/)).closest<HTMLElement>('[role="alert"]')!;

describe('budget banner', () => {
  afterEach(() => sessionStorage.clear());
  const banner = (items: Budget[], role: OrgRole = 'manager') =>
    renderBilling(<BudgetBanner />, [{ url: ALERTS, body: { items } }], { role });

  it('tells a manager the organization crossed a threshold, until dismissed for the session', async () => {
    const first = banner([budget()]);
    const alert = await bannerAlert();
    expect(alert.textContent).toContain('acme has used 92% of its 500-credit budget for November');
    expect(within(alert).getByRole('link', { name: 'Open billing' })).toBeTruthy();
    await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText(/has used/)).toBeNull());
    first.unmount();
    // Dismissed for the session: another page load does not show it again…
    banner([budget()]);
    await waitFor(() => expect(screen.queryByText(/has used/)).toBeNull());
  });

  it('shows a higher threshold again, and a project member their project without a billing link', async () => {
    sessionStorage.setItem('orrery.budget-banner.dismissed', JSON.stringify(['acme//2026-11/90']));
    banner(
      [budget({ project_name: 'vision', credits: '100.0000', percent: 104, crossed: 100 })],
      'user',
    );
    const alert = await bannerAlert();
    expect(alert.textContent).toContain(
      'project vision of acme has used 104% of its 100-credit budget for November',
    );
    expect(within(alert).queryByRole('link')).toBeNull();
  });
});
