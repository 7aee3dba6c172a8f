import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { findEnabled } from '../../../test/world-permissions';
import { expectWhyNot } from '../../../test/permissions';
import type { CannedResponse } from '../../../test/fetch';
import {
  appWire,
  INSTANCE,
  INSTANCE_ID,
  instancesPage,
  renderApps,
  templateSummary,
  V1,
  V1_READER,
} from '../test-fixtures';

const ROUTE = `/apps/instances/${INSTANCE_ID}`;
const base = (v1 = V1) => `${v1}/instances/${INSTANCE_ID}`;
const EVENTS = `${base()}/events`;

function answers(app: Record<string, unknown>, v1 = V1): CannedResponse[] {
  return [
    { url: INSTANCE, body: app },
    { url: `${base(v1)}/input`, body: { display_name: 'x', http_auth: true } },
    {
      url: `${base(v1)}/output`,
      body: { app_url: { external_url: { host: 'orrery.example', port: 443 } } },
    },
    {
      url: `${base(v1)}/events`,
      body: {
        items: [
          { created_at: '2026-01-02T03:04:05+00:00', state: 'queued', reason: 'Installed' },
          {
            created_at: '2026-01-02T03:04:09+00:00',
            state: 'healthy',
            reason: 'HealthCheckPassed',
            message: 'HTTP 200 from /',
          },
        ],
      },
    },
  ];
}

describe('App details', () => {
  it('shows the title, status, Open, input and output with their data, and events', async () => {
    renderApps(ROUTE, answers(appWire()));
    expect(await screen.findByRole('heading', { name: 'My shell', level: 2 })).toBeTruthy();
    expect(screen.getByText('healthy', { selector: '.mantine-Badge-label' })).toBeTruthy();
    const input = await screen.findByLabelText('Input parameters');
    expect(input.textContent).toContain('"http_auth": true');
    const output = await screen.findByLabelText('Output parameters');
    expect(output.textContent).toContain('"external_url"');
    const events = await screen.findByRole('table', { name: 'Events' });
    const rows = within(events).getAllByRole('row');
    expect(rows[0].textContent).toContain('HealthCheckPassed');
    expect(rows[0].textContent).toContain('HTTP 200 from /');
  });

  it('takes the title from the name without a display name, and waits for a URL before Open', async () => {
    renderApps(ROUTE, answers(appWire({ display_name: '', endpoints: [], state: 'queued' })));
    expect(await screen.findByRole('heading', { name: 'shell-7f3a', level: 2 })).toBeTruthy();
    await expectWhyNot('Open', 'The app has no URL yet');
  });

  it('shows the start-up step and its elapsed time until healthy', async () => {
    // The clock stands still but for the test's own steps; the page ticks every second.
    const now = new Date('2026-03-31T12:00:00Z');
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now });
    const since = new Date(now.getTime() - 65_000).toISOString();
    renderApps(
      ROUTE,
      answers(
        appWire({
          state: 'progressing',
          startup: { step: 'waiting_for_http', since, message: null },
        }),
      ),
    );
    const step = await screen.findByRole('status', { name: 'Waiting for HTTP' });
    expect(step.textContent).toMatch(/for 1 min 05 s/);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(step.textContent).toMatch(/for 1 min 15 s/);
  });

  it('shows no start-up step once healthy', async () => {
    renderApps(
      ROUTE,
      answers(
        appWire({ startup: { step: 'starting', since: new Date().toISOString(), message: null } }),
      ),
    );
    await screen.findByRole('heading', { name: 'My shell', level: 2 });
    expect(screen.queryByRole('status', { name: 'Starting' })).toBeNull();
  });

  it('shows the idle-shutdown countdown, what persists, and credits', async () => {
    renderApps(
      ROUTE,
      answers(
        appWire({
          idle: { timeout_minutes: 60, seconds_left: 30 * 60 + 1 },
          home: 'storage:.apps/shell/shell-7f3a',
          credits_per_hour: '0.5',
          credits_so_far: '0.0125',
        }),
      ),
    );
    expect((await screen.findByLabelText('Idle shutdown')).textContent).toMatch(
      /^Stops after 30 min 0\d s without activity$/,
    );
    expect(
      screen.getByText(
        'Files in storage:.apps/shell/shell-7f3a persist after it stops or is reinstalled.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Credits per hour').nextSibling?.textContent).toBe('0.5');
    // Every decimal metering keeps: a minute of a cheap app is not rounded away.
    expect(screen.getByText('Credits so far').nextSibling?.textContent).toBe('0.0125');
  });

  it('refreshes the instance and its events every 10 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = renderApps(ROUTE, answers(appWire()));
    await screen.findByRole('table', { name: 'Events' });
    const count = (url: string) => calls.filter((c) => c.url === url).length;
    expect(count(INSTANCE)).toBe(1);
    expect(count(EVENTS)).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(9_000));
    expect(count(EVENTS)).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await vi.waitFor(() => expect(count(EVENTS)).toBe(2));
    expect(count(INSTANCE)).toBe(2);
  });

  it('uninstalls after a confirmation naming the apps that use it, then goes back replacing history', async () => {
    const app = appWire({ used_by: [{ id: 'p2', display_name: 'Team chat' }] });
    const { calls, url } = renderApps(ROUTE, [
      ...answers(app),
      { method: 'DELETE', url: base(), status: 204 },
      instancesPage([]),
      { url: `${V1}/templates`, body: [templateSummary('shell')] },
    ]);
    fireEvent.click(await findEnabled('Uninstall'));
    const dialog = await screen.findByRole('dialog', { name: 'Uninstall app' });
    expect(within(dialog).getByText('Uninstall My shell? Its jobs are stopped.')).toBeTruthy();
    expect(within(dialog).getByText('Team chat')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Uninstall' }));
    expect(await screen.findByText('App uninstalled successfully')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === base())).toBe(true);
    await vi.waitFor(() => expect(url()).toMatch(/^\/apps\/installed\?/));
  });

  it("shows the server's message when uninstalling fails", async () => {
    renderApps(ROUTE, [
      ...answers(appWire()),
      {
        method: 'DELETE',
        url: base(),
        status: 409,
        body: { error: 'conflict', message: 'The app is already being uninstalled' },
      },
    ]);
    fireEvent.click(await findEnabled('Uninstall'));
    const dialog = await screen.findByRole('dialog', { name: 'Uninstall app' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Uninstall' }));
    expect(await screen.findByText('The app is already being uninstalled')).toBeTruthy();
  });

  it("opens the app at its own host with a one-time ticket for its job, not the user's token", async () => {
    const tab = { opener: {} as unknown, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const ticket = 'https://job-1.jobs.orrery.example/?orrery_ticket=t-1';
    renderApps(ROUTE, [
      ...answers(appWire()),
      { method: 'POST', url: '/api/v1/jobs/job-1/ingress-ticket', body: { url: ticket } },
    ]);
    fireEvent.click(await findEnabled('Open'));
    await vi.waitFor(() => expect(tab.location.href).toBe(ticket));
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    expect(tab.opener).toBeNull();
  });

  it("disables Open of a terminal for a project reader, with the server's reason", async () => {
    const app = appWire({ project_name: 'nlp', interactive: 'terminal' });
    renderApps(ROUTE, answers(app, V1_READER), 'nlp');
    await expectWhyNot('Open', 'Opening this terminal needs write access to the job');
  });

  it('disables Uninstall for a project reader, with the reason', async () => {
    renderApps(ROUTE, answers(appWire({ project_name: 'nlp' }), V1_READER), 'nlp');
    await expectWhyNot('Uninstall', 'You have read access here; this needs write access');
  });

  it('says No such app for an unknown instance, Permission Required without an error body', async () => {
    const { unmount } = renderApps(ROUTE, [
      { url: INSTANCE, status: 404, body: { error: 'not_found', message: 'App not found' } },
    ]);
    expect(await screen.findByText('No such app')).toBeTruthy();
    unmount();
    renderApps(ROUTE, [{ url: INSTANCE, status: 403 }]);
    expect(await screen.findByText('Permission Required')).toBeTruthy();
  });

  it('lists the output values on the Outputs tab', async () => {
    renderApps(`${ROUTE}/outputs`, answers(appWire()));
    expect(await screen.findByText('app_url.external_url.host')).toBeTruthy();
    expect(screen.getByText('orrery.example')).toBeTruthy();
  });
});
