import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JOB_ID, jobWire, MONITORING } from '../test-fixtures';
import { renderJob } from '../test-render';
import { captureDownloads } from '../../../test/downloads';

const LOG = `${MONITORING}/${JOB_ID}/log`;

async function openLogs(name?: string) {
  // A named job's page reads its log a second time for written outputs (OutputsTab); every
  // stream gets what is written, as the server would send each the same log.
  const view = renderJob(jobWire({ name }), '/logs');
  await vi.waitFor(() => expect(view.logs).toHaveLength(name ? 2 : 1));
  const region = await screen.findByRole('log', { name: 'Job log' });
  const write = async (text: string) => {
    await act(async () => {
      for (const l of name ? view.logs : view.logs.slice(-1)) l.stream.write(text);
    });
  };
  return { ...view, region, write };
}

const status = () => screen.getByText(/^\d+ lines?/);
const scrolls: unknown[] = [];

beforeEach(() => {
  scrolls.length = 0;
  // jsdom lays nothing out; a 400 px tall viewport lets the virtualizer render rows.
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, value: 400 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, value: 800 });
  // jsdom does not scroll; the virtualizer's scrollToIndex ends in element.scrollTo.
  Element.prototype.scrollTo = function (this: Element, options?: unknown) {
    scrolls.push(options);
  } as typeof Element.prototype.scrollTo;
});
afterEach(() => {
  // The stubs shadow jsdom's getters on Element.prototype; deleting them brings those back.
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
  delete (Element.prototype as Partial<Element>).scrollTo;
});

describe('Job logs', () => {
  it('streams the log with the bearer token and shows lines as they arrive', async () => {
    const { logs, region, write } = await openLogs();
    expect(logs[0].url).toBe(LOG);
    expect(logs[0].headers.Authorization).toBe('Bearer token-alice');
    await write('first line\nsecond ');
    await write('line\n');
    expect(await within(region).findByText('second line')).toBeTruthy();
    expect(within(region).getByText('first line')).toBeTruthy();
    expect(status().textContent).toBe('2 lines · Streaming…');
    await act(async () => logs[0].stream.end());
    await vi.waitFor(() => expect(status().textContent).toBe('2 lines · End of log'));
  });

  it('follows the end until Follow is switched off', async () => {
    const { write } = await openLogs();
    const follow = screen.getByRole('button', { name: 'Follow' });
    expect(follow.getAttribute('aria-pressed')).toBe('true');
    await write('a\nb\n');
    await vi.waitFor(() => expect(scrolls.length).toBeGreaterThan(0));
    fireEvent.click(follow);
    expect(follow.getAttribute('aria-pressed')).toBe('false');
    const before = scrolls.length;
    await write('c\nd\n');
    await vi.waitFor(() => expect(status().textContent).toMatch(/^4 lines/));
    expect(scrolls.length).toBe(before);
  });

  it('holds new lines back while paused and shows them on resume', async () => {
    const { region, write } = await openLogs();
    await write('one\n');
    await within(region).findByText('one');
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await write('two\nthree\n');
    await vi.waitFor(() =>
      expect(status().textContent).toBe('1 line · Paused; 2 new lines held back'),
    );
    expect(within(region).queryByText('two')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    expect(await within(region).findByText('three')).toBeTruthy();
  });

  it('highlights search matches case-insensitively and counts matching lines', async () => {
    const { region, write } = await openLogs();
    await write('Error: disk full\nall good\nanother error and ERROR\n');
    fireEvent.change(screen.getByRole('textbox', { name: 'Search in logs' }), {
      target: { value: 'error' },
    });
    expect(await screen.findByText('2 matching lines')).toBeTruthy();
    const marks = [...region.querySelectorAll('mark')].map((m) => m.textContent);
    expect(marks).toEqual(['Error', 'error', 'ERROR']);
    fireEvent.click(screen.getByRole('button', { name: 'Next match' }));
    expect(screen.getByRole('button', { name: 'Follow' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
  });

  it('reads the log again with timestamps=1 when Timestamps is switched on', async () => {
    const { logs, region, write } = await openLogs();
    await write('plain\n');
    await within(region).findByText('plain');
    fireEvent.click(screen.getByRole('button', { name: 'Timestamps' }));
    await vi.waitFor(() => expect(logs).toHaveLength(2));
    expect(logs[1].url).toBe(`${LOG}?timestamps=1`);
    await write('2026-01-02T03:04:05Z plain\n');
    expect(await within(region).findByText('2026-01-02T03:04:05Z plain')).toBeTruthy();
    expect(within(region).queryByText('plain')).toBeNull();
  });

  it('keeps 100,000 lines in a virtual list: only the visible rows are in the page', async () => {
    const { region, write } = await openLogs();
    const lines = Array.from({ length: 100_000 }, (_, i) => `line ${i}`);
    await write(`${lines.join('\n')}\n`);
    await vi.waitFor(() => expect(status().textContent).toMatch(/^100000 lines/));
    expect(region.querySelectorAll('[data-line]').length).toBeLessThan(100);
  });

  it('downloads what has been read as <name>.log', async () => {
    const { blobs, clicked, restore } = captureDownloads();
    const { write } = await openLogs('train');
    await write('x\ny\n');
    await vi.waitFor(() => expect(status().textContent).toMatch(/^2 lines/));
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(clicked[0].download).toBe('train.log');
    expect(await blobs[0].text()).toBe('x\ny\n');
    restore();
  });
});
