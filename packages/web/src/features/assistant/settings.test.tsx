import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { loadSettings, SETTINGS_STORAGE_KEY } from './settings';
import { renderChat, stubCopilotSocket } from './test-support';

describe('assistant chat settings', () => {
  it('defaults to hybrid and 3 iterations', () => {
    expect(loadSettings()).toEqual({ mode: 'hybrid', maxIterations: 3 });
  });

  it('keeps the mode and max iterations in the browser and sends them with the next question', async () => {
    const { last } = stubCopilotSocket();
    const first = renderChat();
    await userEvent.click(screen.getByRole('button', { name: 'Open assistant' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Chat settings' }));
    await userEvent.click(await screen.findByRole('radio', { name: 'global' }));
    expect(screen.getByText('Broad themes: headings and relations across pages')).toBeTruthy();
    const iterations = screen.getByRole('textbox', { name: 'Max iterations' });
    fireEvent.change(iterations, { target: { value: '5' } });
    expect(JSON.parse(window.localStorage.getItem(SETTINGS_STORAGE_KEY)!)).toEqual({
      mode: 'global',
      maxIterations: 5,
    });
    first.unmount();

    renderChat();
    await userEvent.click(screen.getByRole('button', { name: 'Open assistant' }));
    last().open();
    await userEvent.type(
      await screen.findByRole('textbox', { name: /Ask about Orrery/ }),
      'Hi{Enter}',
    );
    expect(last().sent).toMatchObject([{ message: 'Hi', mode: 'global', max_iterations: 5 }]);
  });

  it('ignores an iteration count outside 1 to 5 and a mode it does not know', () => {
    window.localStorage.setItem(
      SETTINGS_STORAGE_KEY,
      JSON.stringify({ mode: 'naive', maxIterations: 9 }),
    );
    expect(loadSettings()).toEqual({ mode: 'hybrid', maxIterations: 3 });
    window.localStorage.setItem(
      SETTINGS_STORAGE_KEY,
      JSON.stringify({ mode: 'mix', maxIterations: 1 }),
    );
    expect(loadSettings()).toEqual({ mode: 'mix', maxIterations: 1 });
    window.localStorage.setItem(SETTINGS_STORAGE_KEY, '{not json');
    expect(loadSettings()).toEqual({ mode: 'hybrid', maxIterations: 3 });
  });
});
