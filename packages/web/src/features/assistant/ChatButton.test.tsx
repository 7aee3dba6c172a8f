import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { answer, citation, plan, renderChat, stubCopilotSocket } from './test-support';

const openPanel = async () => {
  await userEvent.click(screen.getByRole('button', { name: /^Open assistant/ }));
  return screen.findByRole('dialog');
};
const status = (text: string) => screen.findByRole('status', { name: text });
const box = () => screen.getByRole('textbox', { name: /Ask about Orrery/ });

describe('assistant chat: connection', () => {
  it('connects with the conversation key and the bearer, and shows each connection state', async () => {
    const { sockets, last } = stubCopilotSocket();
    renderChat();
    await openPanel();
    const socket = last();
    const url = new URL(socket.url);
    expect(url.pathname).toBe('/api/v1/copilot/ws');
    expect(url.protocol).toBe('ws:');
    expect(url.searchParams.get('key')).toMatch(/.{8,}/);
    expect(socket.protocols).toEqual(['copilot.orrery', 'bearer.token-alice']);
    expect(await status('Connecting...')).toBeTruthy();
    socket.open();
    expect(await status('Connected')).toBeTruthy();
    // The browser goes offline: the console closes the socket, until its close event.
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(await status('Closing...')).toBeTruthy();
    expect(socket.readyState).toBe(WebSocket.CLOSING);
    socket.drop();
    expect(await status('Disconnected')).toBeTruthy();
    // Back online, the next socket opens at once rather than at the next 15 s attempt.
    act(() => void window.dispatchEvent(new Event('online')));
    expect(sockets).toHaveLength(2);
    expect(await status('Connecting...')).toBeTruthy();
  });

  it('shows a connection error and tries again every 15 s with the same key', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { sockets, last } = stubCopilotSocket();
    renderChat();
    fireEvent.click(screen.getByRole('button', { name: 'Open assistant' }));
    const first = last();
    first.drop({ error: true });
    expect(await status('Connection error')).toBeTruthy();
    act(() => vi.advanceTimersByTime(14_000));
    expect(sockets).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1_000));
    expect(sockets).toHaveLength(2);
    expect(last().url).toBe(first.url);
    expect(await status('Connecting...')).toBeTruthy();
    last().open();
    expect(await status('Connected')).toBeTruthy();
    act(() => vi.advanceTimersByTime(30_000));
    expect(sockets).toHaveLength(2);
  });
});

describe('assistant chat: a conversation', () => {
  it('offers three suggested questions and sends one with the settings and the context', async () => {
    const { last } = stubCopilotSocket();
    renderChat();
    const panel = await openPanel();
    last().open();
    const suggestions = within(panel).getAllByRole('button', { name: /\?$/ });
    expect(suggestions).toHaveLength(3);
    await userEvent.click(suggestions[0]);
    expect(last().sent).toEqual([
      {
        message: 'How do I follow the logs of a job?',
        conversation_history: [],
        max_iterations: 3,
        mode: 'hybrid',
        context: { org: 'acme', cluster: 'default', project: 'vision' },
      },
    ]);
    expect(screen.getByText('Sending…')).toBeTruthy();
  });

  it('marks the message sent on progress, waits, then renders the cited answer', async () => {
    const { last } = stubCopilotSocket();
    renderChat();
    await openPanel();
    last().open();
    await userEvent.type(box(), 'How do I see logs?{Enter}');
    last().progress(1, 3);
    expect(screen.queryByText('Sending…')).toBeNull();
    expect(screen.getByRole('status', { name: '' }).textContent).toContain(
      'Iteration 1: 2 new sections found',
    );
    last().respond({
      notice: 'The model did not answer (HTTP 502); the embedded engine answered.',
    });
    expect(screen.queryByText(/^Iteration 1:/)).toBeNull();
    const marker = await screen.findByRole('link', { name: '[1]' });
    expect(marker.getAttribute('href')).toBe('/docs/jobs.md#logs');
    expect(marker.getAttribute('target')).toBe('_blank');
    const sources = screen.getByRole('group', { name: 'Sources' });
    expect(within(sources).getByRole('link', { name: 'Jobs > The job page > Logs' })).toBeTruthy();
    expect(screen.getByText('Logs').tagName).toBe('STRONG');
    expect(
      screen.getByText(/Answered by the embedded engine · hybrid · 2 iterations/),
    ).toBeTruthy();
    expect(screen.getByRole('note').textContent).toMatch(/HTTP 502/);
  });

  it('links a resource citation inside the console, keeping the context', async () => {
    const { last } = stubCopilotSocket();
    renderChat();
    await openPanel();
    last().open();
    await userEvent.type(box(), 'Why is train-7 pending?{Enter}');
    last().respond(
      answer({
        response: 'It waits for a GPU node [1].',
        citations: [citation(1, { title: 'Job train-7', url: '/jobs/job-7' })],
      }),
    );
    const link = await screen.findByRole('link', { name: '[1]' });
    expect(link.getAttribute('href')).toBe('/jobs/job-7?org=acme&cluster=default&project=vision');
    expect(link.getAttribute('target')).toBeNull();
  });

  it('shows the plans an answer proposes as cards under it', async () => {
    const { last } = stubCopilotSocket();
    renderChat();
    await openPanel();
    last().open();
    await userEvent.type(box(), 'Kill train-7{Enter}');
    last().respond(answer({ response: 'Job train-7 is running.', citations: [], plans: [plan()] }));
    const card = await screen.findByRole('group', { name: 'Kill job train-7' });
    expect(within(card).getByText('DELETE /api/v1/jobs/job-7')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Confirm' })).toBeTruthy();
  });

  it('sends the earlier turns as history', async () => {
    const { last } = stubCopilotSocket();
    renderChat();
    await openPanel();
    last().open();
    await userEvent.type(box(), 'first{Enter}');
    last().respond(answer({ response: 'one' }));
    await userEvent.type(box(), 'second{Enter}');
    expect(last().sent.at(-1)).toMatchObject({
      message: 'second',
      conversation_history: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'one' },
      ],
    });
  });

  it('shows a chat error as an assistant message and resends the question in its place', async () => {
    const { last } = stubCopilotSocket();
    renderChat();
    await openPanel();
    last().open();
    await userEvent.type(box(), 'Hello{Enter}');
    last().error('Too many questions: wait a minute');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many questions: wait a minute',
    );
    expect(screen.getByText('Not answered')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Resend' }));
    expect(last().sent).toHaveLength(2);
    expect(last().sent[1]).toMatchObject({ message: 'Hello', conversation_history: [] });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getAllByText('Hello')).toHaveLength(1);
  });

  it('offers Resend for the last question when the connection closed before the answer', async () => {
    const { sockets, last } = stubCopilotSocket();
    renderChat();
    await openPanel();
    last().open();
    await userEvent.type(box(), 'Still there?{Enter}');
    last().progress();
    last().drop();
    expect(screen.queryByText(/^Iteration 1:/)).toBeNull();
    await userEvent.click(await screen.findByRole('button', { name: 'Resend' }));
    expect(sockets).toHaveLength(2);
    last().open();
    await waitFor(() => expect(last().sent).toMatchObject([{ message: 'Still there?' }]));
  });

  it('takes an answer kept by the server for the same key after a reconnection', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { sockets, last } = stubCopilotSocket();
    renderChat();
    fireEvent.click(screen.getByRole('button', { name: 'Open assistant' }));
    last().open();
    fireEvent.change(await screen.findByRole('textbox', { name: /Ask about Orrery/ }), {
      target: { value: 'Are you there?' },
    });
    fireEvent.keyDown(box(), { key: 'Enter' });
    last().drop();
    act(() => vi.advanceTimersByTime(15_000));
    expect(sockets).toHaveLength(2);
    expect(last().url).toBe(sockets[0].url);
    last().open();
    last().respond(answer({ response: 'Yes, here.', citations: [] }));
    expect(await screen.findByText('Yes, here.')).toBeTruthy();
    expect(screen.queryByText('Sending…')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resend' })).toBeNull();
  });

  it('says Failed to send message when the socket cannot be reached for a message', async () => {
    const { last } = stubCopilotSocket();
    renderChat();
    await openPanel();
    last().drop({ error: true });
    await userEvent.type(box(), 'Anyone?{Enter}');
    last().drop({ error: true });
    expect(await screen.findByText('Failed to send message')).toBeTruthy();
    expect(screen.getByText('Not answered')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend' })).toBeTruthy();
  });

  it('says You are currently offline and keeps the message when the browser is offline', async () => {
    const { last } = stubCopilotSocket();
    renderChat();
    await openPanel();
    last().open();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await userEvent.type(box(), 'Offline?{Enter}');
    expect(await screen.findByText('You are currently offline')).toBeTruthy();
    expect(last().sent).toEqual([]);
    expect((box() as HTMLTextAreaElement).value).toBe('Offline?');
    vi.restoreAllMocks();
  });

  it('clears the history back to the suggestions', async () => {
    const { last } = stubCopilotSocket();
    renderChat();
    await openPanel();
    last().open();
    expect(screen.getByRole('button', { name: 'Clear history' })).toHaveProperty('disabled', true);
    await userEvent.type(box(), 'Hi{Enter}');
    last().respond(answer({ response: 'Hello.', citations: [] }));
    await userEvent.click(screen.getByRole('button', { name: 'Clear history' }));
    expect(screen.queryByText('Hello.')).toBeNull();
    expect(screen.getByRole('button', { name: 'How do I install an app?' })).toBeTruthy();
  });
});

describe('assistant chat: the message box', () => {
  it('sends on Enter and breaks the line on Shift+Enter', async () => {
    const { last } = stubCopilotSocket();
    renderChat();
    await openPanel();
    last().open();
    await userEvent.type(box(), 'line one{Shift>}{Enter}{/Shift}line two');
    expect(last().sent).toEqual([]);
    expect((box() as HTMLTextAreaElement).value).toBe('line one\nline two');
    await userEvent.type(box(), '{Enter}');
    expect(last().sent).toMatchObject([{ message: 'line one\nline two' }]);
    expect((box() as HTMLTextAreaElement).value).toBe('');
  });

  it('blocks an empty or blank message', async () => {
    const { last } = stubCopilotSocket();
    renderChat();
    await openPanel();
    last().open();
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true);
    await userEvent.type(box(), '   {Enter}');
    expect(last().sent).toEqual([]);
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true);
  });

  it('shows the counter only after 100 characters and stops at 1000', async () => {
    stubCopilotSocket();
    renderChat();
    await openPanel();
    fireEvent.change(box(), { target: { value: 'a'.repeat(100) } });
    expect(screen.queryByText(/\/1000$/)).toBeNull();
    fireEvent.change(box(), { target: { value: 'a'.repeat(101) } });
    expect(screen.getByText('101/1000')).toBeTruthy();
    expect(box().getAttribute('maxlength')).toBe('1000');
  });
});

describe('assistant chat: panel and indicator', () => {
  it('shows loading while an answer is awaited, loaded when it came with the panel closed, empty once seen', async () => {
    const { last } = stubCopilotSocket();
    renderChat();
    await openPanel();
    last().open();
    await userEvent.type(box(), 'Long question{Enter}');
    last().progress();
    await userEvent.click(screen.getByRole('button', { name: 'Close assistant' }));
    const button = await screen.findByRole('button', {
      name: 'Open assistant (an answer is on its way)',
    });
    last().respond();
    expect(button.getAttribute('aria-label')).toBe('Open assistant (a new answer)');
    await userEvent.click(button);
    expect(await screen.findByRole('link', { name: '[1]' })).toBeTruthy();
    expect(button.getAttribute('aria-label')).toBe('Open assistant');
  });

  it('keeps the conversation while the panel is closed', async () => {
    const { sockets, last } = stubCopilotSocket();
    renderChat();
    await openPanel();
    last().open();
    await userEvent.type(box(), 'Remember me{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Close assistant' }));
    await openPanel();
    expect(screen.getByText('Remember me')).toBeTruthy();
    expect(sockets).toHaveLength(1);
  });

  it('toggles fullscreen with Ctrl+Shift+F; Escape leaves fullscreen and keeps the panel', async () => {
    stubCopilotSocket();
    renderChat();
    await openPanel();
    expect(screen.getByRole('button', { name: /^Fullscreen/ })).toBeTruthy();
    fireEvent.keyDown(box(), { key: 'F', ctrlKey: true, shiftKey: true });
    expect(await screen.findByRole('button', { name: /^Leave fullscreen/ })).toBeTruthy();
    fireEvent.keyDown(box(), { key: 'F', metaKey: true, shiftKey: true });
    expect(await screen.findByRole('button', { name: /^Fullscreen/ })).toBeTruthy();
    fireEvent.keyDown(box(), { key: 'F', ctrlKey: true, shiftKey: true });
    fireEvent.keyDown(box(), { key: 'Escape' });
    expect(await screen.findByRole('button', { name: /^Fullscreen/ })).toBeTruthy();
    fireEvent.keyDown(box(), { key: 'Escape' });
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Fullscreen/ })).toBeTruthy();
  });
});
