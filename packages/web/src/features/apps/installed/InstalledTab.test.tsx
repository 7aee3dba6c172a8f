import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stateColor } from '../rules';
import {
  appWire,
  INSTANCES,
  instancesPage,
  renderApps,
  templateSummary,
  V1,
} from '../test-fixtures';
import { VIEW_KEY } from './useInstalledParams';

const templates = {
  url: `${V1}/templates`,
  body: [
    templateSummary('shell', { tags: ['Terminal'] }),
    templateSummary('jupyter', { tags: ['Notebook'] }),
  ],
};
const apps = [
  appWire(),
  appWire({
    id: 'j1',
    name: 'jupyter-1',
    display_name: 'Analysis',
    template_name: 'jupyter',
    state: 'progressing',
    endpoints: [],
    creator: 'bob',
    template_version: '2.1.0',
  }),
  appWire({ id: 'gone', name: 'old-shell', display_name: '', state: 'uninstalled' }),
];
const cards = () => screen.queryAllByRole('article').map((a) => a.getAttribute('aria-label'));

describe('Installed Apps', () => {
  it('shows a card per instance with status, Installed, Owner, Version, Details and Open; hides uninstalled', async () => {
    renderApps('/apps/installed', [templates, instancesPage(apps)]);
    const jupyter = await screen.findByRole('article', { name: 'Analysis' });
    expect(cards()).toEqual(['My shell', 'Analysis']);
    expect(within(jupyter).getByText('progressing')).toBeTruthy();
    expect(within(jupyter).getByText('Owner: bob')).toBeTruthy();
    expect(within(jupyter).getByText('Version: 2.1.0')).toBeTruthy();
    expect(within(jupyter).getByText(/^Installed: /)).toBeTruthy();
    expect(within(jupyter).getByRole('link', { name: 'Details' }).getAttribute('href')).toMatch(
      /^\/apps\/instances\/j1\?/,
    );
    // Open waits for a URL.
    expect(within(jupyter).getByRole('button', { name: 'Open' })).toHaveProperty('disabled', true);
    const shell = screen.getByRole('article', { name: 'My shell' });
    expect(within(shell).getByRole('button', { name: 'Open' })).toHaveProperty('disabled', false);
  });

  it('says under the badge why an app is errored or degraded', async () => {
    const failed = 'Job job-9 failed: Volumes need bubblewrap on the process runtime';
    renderApps('/apps/installed', [
      templates,
      instancesPage([
        appWire({ state: 'errored', state_message: failed }),
        appWire({ id: 'h', display_name: 'Fine', state: 'healthy', state_message: null }),
      ]),
    ]);
    const card = await screen.findByRole('article', { name: 'My shell' });
    expect(within(card).getByText('errored')).toBeTruthy();
    expect(within(card).getByText(failed)).toBeTruthy();
    const fine = screen.getByRole('article', { name: 'Fine' });
    expect(within(fine).queryByText(/failed/)).toBeNull();
    fireEvent.click(screen.getByText('List'));
    const row = (await screen.findByText(failed)).closest('tr')!;
    expect(within(row).getByText('errored')).toBeTruthy();
  });

  it('reads every page of 100 the server announces', async () => {
    const { calls } = renderApps('/apps/installed', [
      templates,
      { url: INSTANCES, body: { items: [apps[0]], pages: 2 } },
      { url: /&page=2&size=100$/, body: { items: [apps[1]], pages: 2 } },
    ]);
    await screen.findByRole('article', { name: 'Analysis' });
    expect(cards()).toEqual(['My shell', 'Analysis']);
    expect(calls.filter((c) => c.url.includes('/apis/apps/v2/instances?'))).toHaveLength(2);
  });

  it('colours states: healthy green, waiting yellow, errored red, the rest gray', () => {
    expect(stateColor('healthy')).toBe('green');
    for (const s of ['queued', 'pending', 'cancelled', 'uninstalled'])
      expect(stateColor(s)).toBe('yellow');
    expect(stateColor('errored')).toBe('red');
    for (const s of ['progressing', 'degraded', 'uninstalling']) expect(stateColor(s)).toBe('gray');
  });

  it('polls the instances every 15 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = renderApps('/apps/installed', [templates, instancesPage(apps)]);
    await screen.findByRole('article', { name: 'Analysis' });
    const gets = () => calls.filter((c) => INSTANCES.test(c.url)).length;
    expect(gets()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(14_000));
    expect(gets()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await vi.waitFor(() => expect(gets()).toBe(2));
  });

  it('searches by name after a 400 ms pause, into the search parameter', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { url } = renderApps('/apps/installed', [templates, instancesPage(apps)]);
    await screen.findByRole('article', { name: 'Analysis' });
    fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), {
      target: { value: 'analy' },
    });
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(cards()).toEqual(['My shell', 'Analysis']);
    expect(url()).not.toContain('search=');
    await act(() => vi.advanceTimersByTimeAsync(100));
    await vi.waitFor(() => expect(cards()).toEqual(['Analysis']));
    expect(url()).toContain('search=analy');
  });

  it('filters by the templates’ tags', async () => {
    renderApps('/apps/installed', [templates, instancesPage(apps)]);
    await screen.findByRole('article', { name: 'Analysis' });
    fireEvent.click(screen.getByRole('button', { name: 'Tags' }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Terminal' }));
    expect(cards()).toEqual(['My shell']);
  });

  it('switches to the list and keeps the choice in the browser (grid=0, list=1)', async () => {
    renderApps('/apps/installed', [templates, instancesPage(apps)]);
    await screen.findByRole('article', { name: 'Analysis' });
    fireEvent.click(screen.getByText('List'));
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(cards()).toEqual([]);
    expect(window.localStorage.getItem(VIEW_KEY)).toBe('1');
    fireEvent.click(screen.getByText('Grid'));
    expect(window.localStorage.getItem(VIEW_KEY)).toBe('0');
  });

  it('opens in the list view when the browser stored it', async () => {
    window.localStorage.setItem(VIEW_KEY, '1');
    renderApps('/apps/installed', [templates, instancesPage(apps)]);
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(screen.getByText('Analysis')).toBeTruthy();
  });

  it('under installed/{appName} shows that template only, and the chip closes to All Apps', async () => {
    const { url } = renderApps('/apps/installed/jupyter', [
      templates,
      instancesPage(apps),
      { url: `${V1}/templates`, body: [] },
    ]);
    await screen.findByRole('article', { name: 'Analysis' });
    expect(cards()).toEqual(['Analysis']);
    fireEvent.click(screen.getByRole('button', { name: 'Show every installed app' }));
    await vi.waitFor(() => expect(url()).toMatch(/^\/apps\?/));
  });

  it('says when nothing is installed', async () => {
    renderApps('/apps/installed', [templates, instancesPage([])]);
    expect(await screen.findByText('No apps installed')).toBeTruthy();
  });

  it("shows the server's message when the list fails", async () => {
    renderApps('/apps/installed', [
      templates,
      { url: INSTANCES, status: 503, body: { error: 'unavailable', message: 'apps service down' } },
    ]);
    expect(await screen.findByText('apps service down')).toBeTruthy();
  });
});
