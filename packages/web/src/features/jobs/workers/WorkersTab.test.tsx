import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectWhyNot, permissionsOf } from '../../../test/permissions';
import { JOB_ID, jobWire, MONITORING } from '../test-fixtures';
import { renderJob } from '../test-render';

/** A frame of the exec channel protocol: the channel's byte, then the bytes. */
const frame = (channel: number, text: string) => {
  const body = new TextEncoder().encode(text);
  const out = new Uint8Array(body.length + 1);
  out[0] = channel;
  out.set(body, 1);
  return out.buffer;
};

const tabs = () => screen.getAllByRole('tab').map((t) => t.textContent);

describe('Workers of a job of several', () => {
  // jsdom lays nothing out; a 400 px tall viewport lets the log's virtualizer render rows.
  beforeEach(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
      configurable: true,
      value: 400,
    });
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, value: 800 });
    Element.prototype.scrollTo = () => undefined;
  });
  afterEach(() => {
    delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
    delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
    delete (Element.prototype as Partial<Element>).scrollTo;
  });

  it('are not offered for a job of one worker: no tab, and its address shows the details', async () => {
    renderJob(jobWire({ nodes: 1 }), '/workers');
    expect(await screen.findByRole('region', { name: 'Job' })).toBeTruthy();
    expect(tabs()).toEqual(['Details', 'Observability', 'Logs', 'Outputs']);
  });

  it("shows each worker's own log, by its rank", async () => {
    const view = renderJob(jobWire({ nodes: 2 }), '/workers');
    expect(await screen.findByRole('tab', { name: 'Workers', selected: true })).toBeTruthy();
    expect(screen.getByText(/runs as 2 workers started together/)).toBeTruthy();
    const logOf = (worker: number) =>
      vi.waitFor(() => {
        const url = `${MONITORING}/${JOB_ID}/log?worker=${worker}`;
        const found = view.logs.find((l) => l.url === url);
        expect(found, view.logs.map((l) => l.url).join(' ')).toBeTruthy();
        return found!;
      });
    const first = await logOf(0);
    await act(async () => first.stream.write('rank 0 ready\n'));
    const log0 = await screen.findByRole('log', { name: 'Log of worker 0' });
    expect(await within(log0).findByText('rank 0 ready')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Worker 1' }));
    const second = await logOf(1);
    await act(async () => second.stream.write('rank 1 ready\n'));
    const log1 = await screen.findByRole('log', { name: 'Log of worker 1' });
    expect(await within(log1).findByText('rank 1 ready')).toBeTruthy();
    expect(within(log1).queryByText('rank 0 ready')).toBeNull();
  });

  it('runs a command in the chosen worker and shows its output and exit code', async () => {
    const view = renderJob(jobWire({ nodes: 2, status: 'running' }), '/workers');
    fireEvent.click(await screen.findByRole('radio', { name: 'Worker 1' }));
    fireEvent.change(screen.getByRole('textbox', { name: /Command to run in worker 1/ }), {
      target: { value: 'echo $RANK' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    const exec = () => view.sockets.find((s) => s.url.includes('/exec'));
    await vi.waitFor(() => expect(exec()).toBeTruthy());
    expect(exec()!.url).toBe(
      `ws://localhost:8080/api/v1/jobs/${JOB_ID}/exec?cmd=echo+%24RANK&worker=1`,
    );
    expect(exec()!.protocols).toEqual(['v2.channels.neu.ro', 'bearer.token-alice']);
    act(() => {
      exec()!.onmessage?.({ data: frame(1, '1\n') });
      exec()!.onmessage?.({ data: frame(3, '{"exit_code":0}') });
      exec()!.onclose?.({ code: 1000, reason: '' });
    });
    const output = await screen.findByRole('region', { name: 'Command output' });
    expect(output.textContent).toBe('1\nExit code 0');
  });

  it("shows the server's reason when the command could not run", async () => {
    const view = renderJob(jobWire({ nodes: 2, status: 'running' }), '/workers');
    fireEvent.change(await screen.findByRole('textbox', { name: /Command to run in worker 0/ }), {
      target: { value: 'true' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await vi.waitFor(() => expect(view.sockets.some((s) => s.url.includes('/exec'))).toBe(true));
    act(() =>
      view.sockets
        .find((s) => s.url.includes('/exec'))!
        .onclose?.({ code: 1011, reason: `Job ${JOB_ID}.w0 is not running` }),
    );
    expect(await screen.findByText(`Job ${JOB_ID}.w0 is not running`)).toBeTruthy();
  });

  it('offers Run only while the job runs, saying why', async () => {
    renderJob(jobWire({ nodes: 2, status: 'succeeded' }), '/workers');
    await expectWhyNot('Run', 'Commands run only in a running job');
  });

  it('keeps a project reader from running a command, saying why', async () => {
    renderJob(jobWire({ nodes: 2, status: 'running' }), '/workers', [
      permissionsOf([{ prefix: 'job://default/acme/vision', have: 'read' }]),
    ]);
    await expectWhyNot('Run', 'You have read access here; this needs write access');
  });
});
