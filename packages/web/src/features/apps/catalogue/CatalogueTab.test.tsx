import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  appWire,
  INSTANCES,
  instancesPage,
  renderApps,
  templateSummary,
  V1,
  V1_READER,
} from '../test-fixtures';

const catalogue = [
  templateSummary('shell', {
    tags: ['Terminal', 'Interactive', 'Tools', 'Linux', 'Easy Deploy'],
  }),
  templateSummary('jupyter', { tags: ['Easy Deploy', 'Notebook'] }),
  templateSummary('postgresql', { tags: ['Easy Deploy', 'Database'] }),
  templateSummary('vscode', { tags: ['Easy Deploy', 'IDE'] }),
  templateSummary('dify', {
    tags: ['LLM'],
    available: false,
    unavailable_reason: 'Needs the docker runtime, which this installation does not have',
  }),
];

const card = (region: HTMLElement, title: string) =>
  within(region).getByRole('article', { name: title });

describe('All Apps', () => {
  it('shows cards with 3 tags, Easy Deploy first, +N, and the installed count', async () => {
    renderApps('/apps', [
      { url: `${V1}/templates`, body: catalogue },
      instancesPage([appWire(), appWire({ id: 'x2', name: 'shell-2' })]),
    ]);
    const all = await screen.findByRole('heading', { name: 'All apps' });
    const grid = all.parentElement!;
    const shell = card(grid, 'Shell');
    const badges = within(shell)
      .getAllByText(/./, { selector: '.mantine-Badge-label' })
      .map((b) => b.textContent);
    expect(badges).toEqual(['Easy Deploy', 'Terminal', 'Interactive', '+2']);
    expect(within(shell).getByText('shell in the browser')).toBeTruthy();
    expect(await within(shell).findByRole('link', { name: 'Installed (2)' })).toBeTruthy();
    fireEvent.click(within(shell).getByRole('button', { name: 'Show All' }));
    expect(within(shell).getByText('Linux')).toBeTruthy();
    expect(within(shell).queryByText('+2')).toBeNull();
    expect(within(shell).getByRole('link', { name: 'Explore' }).getAttribute('href')).toMatch(
      /^\/apps\/shell\?/,
    );
    expect(within(shell).getByRole('link', { name: 'Install' }).getAttribute('href')).toMatch(
      /^\/apps\/shell\/install\?/,
    );
  });

  it('disables Install with the reason when this installation cannot run the template', async () => {
    renderApps('/apps', [{ url: `${V1}/templates`, body: catalogue }, instancesPage([])]);
    const grid = (await screen.findByRole('heading', { name: 'All apps' })).parentElement!;
    const dify = card(grid, 'Dify');
    expect(within(dify).getByRole('button', { name: 'Install' })).toHaveProperty('disabled', true);
    expect(
      within(dify).getByText('Needs the docker runtime, which this installation does not have'),
    ).toBeTruthy();
  });

  it('disables Install for a project reader, with the reason', async () => {
    renderApps(
      '/apps',
      [{ url: `${V1_READER}/templates`, body: catalogue }, instancesPage([])],
      'nlp',
    );
    const grid = (await screen.findByRole('heading', { name: 'All apps' })).parentElement!;
    for (const title of ['Shell', 'Jupyter']) {
      const install = await within(card(grid, title)).findByRole('button', { name: 'Install' });
      expect(install).toHaveProperty('disabled', true);
      fireEvent.mouseEnter(install.parentElement!);
      expect((await screen.findAllByRole('tooltip')).map((t) => t.textContent)).toContain(
        'You have read access here; this needs write access',
      );
    }
  });

  it('pages the Easy Deploy carousel 3 at a time with arrows', async () => {
    renderApps('/apps', [{ url: `${V1}/templates`, body: catalogue }, instancesPage([])]);
    const carousel = await screen.findByRole('region', { name: 'Easy Deploy' });
    const titles = () =>
      within(carousel)
        .getAllByRole('article')
        .map((a) => a.getAttribute('aria-label'));
    expect(titles()).toEqual(['Shell', 'Jupyter', 'Postgresql']);
    expect(within(carousel).getByText('1 of 2')).toBeTruthy();
    const prev = within(carousel).getByRole('button', { name: 'Previous apps' });
    expect(prev).toHaveProperty('disabled', true);
    fireEvent.click(within(carousel).getByRole('button', { name: 'Next apps' }));
    expect(titles()).toEqual(['Vscode']);
    expect(within(carousel).getByRole('button', { name: 'Next apps' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('has no arrows with 3 templates or fewer', async () => {
    renderApps('/apps', [
      { url: `${V1}/templates`, body: catalogue.slice(1, 3) },
      instancesPage([]),
    ]);
    const carousel = await screen.findByRole('region', { name: 'Easy Deploy' });
    expect(within(carousel).queryByRole('button', { name: 'Next apps' })).toBeNull();
  });

  it("shows the server's message when the catalogue fails", async () => {
    renderApps('/apps', [
      { url: `${V1}/templates`, status: 500, body: { error: 'internal', message: 'disk on fire' } },
      instancesPage([]),
    ]);
    expect(await screen.findByText('disk on fire')).toBeTruthy();
  });

  it('says why the installed counts are missing when the instances fail', async () => {
    renderApps('/apps', [
      { url: `${V1}/templates`, body: catalogue },
      { url: INSTANCES, status: 503, body: { error: 'unavailable', message: 'apps service down' } },
    ]);
    expect(await screen.findByText('apps service down')).toBeTruthy();
  });
});
