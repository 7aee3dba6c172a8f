import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppInstanceWire } from '@orrery/contract';
import { APP_LOG_RECONNECT_MS } from '../../../api/apps';
import type { CannedResponse } from '../../../test/fetch';
import { textStream } from '../../jobs/test-fixtures';
import { appWire, INSTANCE, INSTANCE_ID, renderApps, V1 } from '../test-fixtures';
import { captureDownloads } from '../../../test/downloads';

const ROUTE = `/apps/instances/${INSTANCE_ID}/log`;
/** The cluster's monitoring URL with `jobs` replaced by `apps`. */
const APPS = 'http://localhost:8080/api/v1/apps';
const LOG = `${APPS}/${INSTANCE_ID}/log`;
const CONTAINERS = `${APPS}/${INSTANCE_ID}/containers`;
const params: CannedResponse[] = [
  { url: new RegExp(`^${V1}/instances/${INSTANCE_ID}/(input|output|events)$`), status: 404 },
];

/** A line as the server streams it (contract AppLogLine). */
const line = (job_id: string, container: string, log: string) =>
  `${JSON.stringify({ job_id, container, log })}\n`;

/** The Log tab with `containers` as the server lists them; each log request gets a stream. */
function openLog(app: Partial<AppInstanceWire>, containers: string[], logAnswer?: CannedResponse) {
  const view = renderApps(ROUTE, [
    { url: INSTANCE, body: appWire(app) },
    { url: CONTAINERS, body: containers },
    ...params,
  ]);
  const json = view.fetchMock.getMockImplementation()!;
  const logs: {
    url: string;
    headers: Record<string, string>;
    stream: ReturnType<typeof textStream>;
  }[] = [];
  view.fetchMock.mockImplementation(async (input, init = {}) => {
    const url = String(input);
    if (!url.startsWith(LOG)) return json(input, init);
    if (logAnswer)
      return new Response(JSON.stringify(logAnswer.body), { status: logAnswer.status });
    const stream = textStream();
    logs.push({ url, headers: { ...(init.headers as Record<string, string>) }, stream });
    return stream.response();
  });
  const write = async (text: string) => {
    await vi.waitFor(() => expect(logs.length).toBeGreaterThan(0));
    await act(async () => logs.at(-1)!.stream.write(text));
  };
  const end = async () => act(async () => logs.at(-1)!.stream.end());
  return { ...view, logs, write, end };
}

const region = () => screen.getByRole('log', { name: 'App log' });
const status = () => screen.getByText(/^\d+ lines?/);
const rows = () => [...region().querySelectorAll('[data-line]')].map((r) => r.textContent);

beforeEach(() => {
  // jsdom lays nothing out; a 400 px tall viewport lets the virtualizer render rows.
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, value: 400 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, value: 800 });
  Element.prototype.scrollTo = function () {} as typeof Element.prototype.scrollTo;
});
afterEach(() => {
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
  delete (Element.prototype as Partial<Element>).scrollTo;
});

describe("An app's Log tab", () => {
  it('labels each line with its container, filters by container, copies and downloads what is shown', async () => {
    const { logs, write } = openLog({}, ['main', 'db', 'worker']);
    await write(
      line('job-1', 'main', 'listening on 8080') +
        line('job-2', 'db', 'database system is ready') +
        line('job-1', 'main', 'GET / 200'),
    );
    expect(logs[0].url).toBe(LOG);
    expect(logs[0].headers.Authorization).toBe('Bearer token-alice');
    expect(logs[0].headers.Accept).toBe('application/x-ndjson');
    await vi.waitFor(() =>
      expect(rows()).toEqual([
        '[main] listening on 8080',
        '[db] database system is ready',
        '[main] GET / 200',
      ]),
    );
    expect(status().textContent).toBe('3 lines · Streaming…');

    // The filter offers the containers the server lists, those without a line yet too.
    fireEvent.click(screen.getByRole('combobox', { name: 'Container' }));
    expect(await screen.findByRole('option', { name: 'worker' })).toBeTruthy();
    fireEvent.click(screen.getByRole('option', { name: 'db' }));
    await vi.waitFor(() => expect(rows()).toEqual(['[db] database system is ready']));
    expect(status().textContent).toBe('1 line · Streaming…');

    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { blobs, clicked, restore } = captureDownloads();
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(clicked[0].download).toBe('My shell-db.log');
    expect(await blobs[0].text()).toBe('[db] database system is ready\n');
    restore();
    // Rendered again with the clipboard in place.
    await write(line('job-2', 'db', 'checkpoint complete'));
    await vi.waitFor(() => expect(rows()).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(
      '[db] database system is ready\n[db] checkpoint complete\n',
    );
    delete (navigator as { clipboard?: unknown }).clipboard;
  });

  it('shows one container’s lines bare, with no filter, and says so before the first line', async () => {
    const { write } = openLog({ state: 'progressing' }, ['main']);
    expect(
      await screen.findByText(
        'No log lines yet; they appear as soon as the app’s jobs write them.',
      ),
    ).toBeTruthy();
    await write(line('job-1', 'main', 'Jupyter Notebook is running'));
    await vi.waitFor(() => expect(rows()).toEqual(['Jupyter Notebook is running']));
    expect(screen.queryByRole('combobox', { name: 'Container' })).toBeNull();
  });

  it('reads again when the stream ends while the app runs, without repeating lines', async () => {
    const { logs, write, end } = openLog({}, ['main']);
    await write(line('job-1', 'main', 'one') + line('job-1', 'main', 'two'));
    await vi.waitFor(() => expect(rows()).toEqual(['one', 'two']));
    // The pause before reading again passes on a fake clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await end();
    expect(logs).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(APP_LOG_RECONNECT_MS));
    vi.useRealTimers();
    await vi.waitFor(() => expect(logs).toHaveLength(2));
    // The server sends each job's lines from the start again, then the new revision's job.
    await write(
      line('job-1', 'main', 'one') + line('job-1', 'main', 'two') + line('job-3', 'main', 'three'),
    );
    await vi.waitFor(() => expect(rows()).toEqual(['one', 'two', 'three']));
    expect(status().textContent).toBe('3 lines · Streaming…');
  });

  it('ends with the lines of an errored app, which say why, and does not read again', async () => {
    const { logs, write, end } = openLog({ state: 'errored' }, ['main']);
    await write(line('job-1', 'main', 'Error: listen EADDRINUSE :::8080'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await end();
    await vi.waitFor(() => expect(status().textContent).toBe('1 line · End of log'));
    expect(within(region()).getByText('Error: listen EADDRINUSE :::8080')).toBeTruthy();
    // Well past the pause after which a running app's log is read again.
    await act(() => vi.advanceTimersByTimeAsync(APP_LOG_RECONNECT_MS * 2));
    expect(logs).toHaveLength(1);
  });

  it('shows the server’s message when the log cannot be read', async () => {
    openLog({}, ['main'], {
      url: LOG,
      status: 404,
      body: { error: 'not_found', message: `App instance ${INSTANCE_ID} not found` },
    });
    expect(await screen.findByText(`App instance ${INSTANCE_ID} not found`)).toBeTruthy();
  });
});
