import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { expectOffered, expectWhyNot, permissionsOf } from '../../../test/permissions';
import { GET, renderJob } from '../test-render';
import { JOB_ID, jobWire, MONITORING, processRuntimeRoute, ROUTE_QUERY } from '../test-fixtures';

const actionsPanel = async () => screen.findByRole('group', { name: 'Actions' });
const enabledIn = (panel: HTMLElement) =>
  [...panel.querySelectorAll<HTMLElement>('button, a')]
    .filter((b) => !(b as HTMLButtonElement).disabled && b.getAttribute('data-disabled') !== 'true')
    .map((b) => b.textContent);
const enabledActions = async () => enabledIn(await actionsPanel());

describe('Job page', () => {
  it('titles the page with the name, else the id, and shows every detail', async () => {
    renderJob(jobWire());
    expect(await screen.findByRole('heading', { name: 'train', level: 2 })).toBeTruthy();
    const details = screen.getByRole('region', { name: 'Job' });
    expect(within(details).getByText(`job://default/acme/vision/${JOB_ID}`)).toBeTruthy();
    expect(within(details).getByText('1d')).toBeTruthy();
    const container = screen.getByRole('region', { name: 'Container' });
    expect(within(container).getByText('python train.py')).toBeTruthy();
    expect(within(container).getByText('0.5 CPU, 1.07 GB, shm')).toBeTruthy();
    const env = screen.getByRole('region', { name: 'Environment' });
    expect(within(env).getByText('MODE')).toBeTruthy();
    expect(within(env).getByText('from secret://default/acme/vision/token')).toBeTruthy();
    const volumes = screen.getByRole('region', { name: 'Volumes' });
    expect(within(volumes).getByText('read-only')).toBeTruthy();
    const history = screen.getByRole('region', { name: 'History' });
    expect(within(history).getByText('Creating')).toBeTruthy();
    const side = screen.getByRole('complementary');
    expect(within(side).getByText('cpu-small')).toBeTruthy();
    expect(within(side).getByText('exp:1')).toBeTruthy();
  });

  it('refreshes the job every 10 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = renderJob(jobWire());
    await screen.findByRole('heading', { name: 'train', level: 2 });
    const gets = () => calls.filter((c) => c.url === GET).length;
    expect(gets()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(9_000));
    expect(gets()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await vi.waitFor(() => expect(gets()).toBe(2));
  });

  it('uses the id as the title of a job without a name', async () => {
    renderJob(jobWire({ name: undefined }));
    expect(await screen.findByRole('heading', { name: JOB_ID, level: 2 })).toBeTruthy();
  });

  it.each([
    ['running', 'alice', true, ['Kill', 'Save image', 'Open', 'Share']],
    ['pending', 'alice', true, ['Kill', 'Open', 'Share']],
    ['succeeded', 'alice', true, ['Rerun', 'Open', 'Share']],
    ['succeeded', 'bob', true, ['Open', 'Share']],
    ['failed', 'alice', true, ['Rerun', 'Share']],
    ['cancelled', 'alice', true, ['Rerun', 'Share']],
    ['succeeded', 'alice', false, ['Rerun', 'Share']],
  ] as const)('enables the actions of a %s job of %s (URL: %s)', async (status, owner, url, on) => {
    renderJob(
      jobWire({ status, owner, http_url: url ? 'http://localhost:8080/jobs/x' : undefined }),
    );
    // The permission engine's answer comes after the job's.
    const panel = await actionsPanel();
    await waitFor(() => expect(enabledIn(panel)).toEqual(on));
  });

  it('keeps a project reader from Kill, Save image and Share, and says why', async () => {
    renderJob(jobWire({ status: 'running' }), '', [
      permissionsOf([{ prefix: 'job://default/acme/vision', have: 'read' }]),
    ]);
    const write = 'You have read access here; this needs write access';
    await expectWhyNot('Kill', write);
    await expectWhyNot('Save image', write);
    await expectWhyNot('Share', 'You have read access here; this needs manage access');
  });

  /** A stand-in for the tab `window.open` gives: where it was sent, whether it was closed. */
  const stubTab = () => {
    const tab = { opener: {} as unknown, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    return { tab, open };
  };
  const HOST_URL = `http://${JOB_ID}.jobs.localhost:8080/`;
  const TICKET = `/api/v1/jobs/${JOB_ID}/ingress-ticket`;

  it("opens the job at its own host in a new tab, with a one-time ticket and not the user's token", async () => {
    const { tab, open } = stubTab();
    const { calls } = renderJob(jobWire({ status: 'running', http_url: HOST_URL }), '', [
      { method: 'POST', url: TICKET, body: { url: `${HOST_URL}?orrery_ticket=t-1` } },
    ]);
    fireEvent.click(await within(await actionsPanel()).findByRole('button', { name: 'Open' }));
    await waitFor(() => expect(tab.location.href).toBe(`${HOST_URL}?orrery_ticket=t-1`));
    // The tab opened at once (popup blockers allow it), with no way back to the console.
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    expect(tab.opener).toBeNull();
    expect(calls.some((c) => c.url === TICKET)).toBe(true);
    expect(tab.location.href).not.toContain('token-alice');
    open.mockRestore();
  });

  it("closes the tab and shows the server's message when Open is refused", async () => {
    const { tab, open } = stubTab();
    const message = 'Opening this notebook needs write access to the job';
    renderJob(jobWire({ status: 'running', http_url: HOST_URL }), '', [
      { method: 'POST', url: TICKET, status: 403, body: { error: 'forbidden', message } },
    ]);
    fireEvent.click(await within(await actionsPanel()).findByRole('button', { name: 'Open' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(tab.close).toHaveBeenCalled();
    open.mockRestore();
  });

  it("keeps a project reader from opening an interactive app's job, and says why", async () => {
    const job = jobWire({ status: 'running', http_url: HOST_URL });
    job.container.http = { ...job.container.http!, interactive: 'terminal' };
    renderJob(job, '', [permissionsOf([{ prefix: 'job://default/acme/vision', have: 'read' }])]);
    await expectWhyNot('Open', 'Opening this terminal needs write access to the job');
  });

  it('reruns on the server, says so and opens the new job', async () => {
    const job = jobWire({ status: 'succeeded' });
    const { calls, url } = renderJob(job, '', [
      {
        method: 'POST',
        url: `/api/v1/jobs/${job.id}/rerun`,
        status: 202,
        body: jobWire({ id: 'job-new', status: 'pending' }),
      },
      { url: '/api/v1/jobs/job-new', body: jobWire({ id: 'job-new', status: 'pending' }) },
    ]);
    fireEvent.click(await within(await actionsPanel()).findByRole('button', { name: 'Rerun' }));
    expect(await screen.findByText('Job train rerun')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST' && c.url.endsWith('/rerun'))).toHaveLength(1);
    await vi.waitFor(() => expect(url()).toBe(`/jobs/job-new?${ROUTE_QUERY}`));
  });

  it('kills after confirmation', async () => {
    const { calls } = renderJob(jobWire(), '', [{ method: 'DELETE', url: GET, status: 204 }]);
    await expectOffered('Kill');
    fireEvent.click(within(await actionsPanel()).getByRole('button', { name: 'Kill' }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Kill' }),
    );
    expect(await screen.findByText('Job killed')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('shares the job URI with the share dialog', async () => {
    const { calls } = renderJob(jobWire(), '', [
      { method: 'POST', url: '/api/v1/users/bob/permissions', status: 201, body: [] },
    ]);
    await expectOffered('Share');
    fireEvent.click(within(await actionsPanel()).getByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Username/), { target: { value: 'bob' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Granted permission for bob')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST' && c.url.includes('/users/'))!.body).toEqual([
      { uri: `job://default/acme/vision/${JOB_ID}`, action: 'read' },
    ]);
  });

  it.each([
    [
      'says "Image saved" after the NDJSON stream ends',
      '{"status":"CommitStarted","details":{"container":"abc"}}\r\n{"status":"CommitFinished"}\r\n{"aux":{"Tag":"v1","Digest":"sha256:1","Size":1}}\r\n',
      'Image saved',
    ],
    [
      'shows the stream’s error',
      '{"status":"CommitStarted"}\r\n{"error":"push denied","errorDetail":{"message":"push denied"}}\r\n',
      'push denied',
    ],
  ])('saves the image of a running job: %s', async (_, ndjson, outcome) => {
    const view = renderJob(jobWire());
    const json = view.fetchMock.getMockImplementation()!;
    const saves: { url: string; body: unknown }[] = [];
    view.fetchMock.mockImplementation(async (input, init = {}) => {
      if (!String(input).endsWith('/save')) return json(input, init);
      saves.push({ url: String(input), body: JSON.parse(String(init.body)) });
      return new Response(ndjson, { headers: { 'Content-Type': 'application/x-ndjson' } });
    });
    await expectOffered('Save image');
    fireEvent.click(within(await actionsPanel()).getByRole('button', { name: 'Save image' }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText(/Image name/);
    fireEvent.change(name, { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Required')).toBeTruthy();
    expect(saves).toHaveLength(0);
    fireEvent.change(name, { target: { value: 'trained' } });
    fireEvent.change(within(dialog).getByLabelText(/Tag/), { target: { value: 'v1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await screen.findAllByText(outcome)).length).toBeGreaterThan(0);
    expect(saves[0]).toEqual({
      url: `${MONITORING}/${JOB_ID}/save`,
      body: { container: { image: 'localhost:8080/acme/vision/trained:v1' } },
    });
  });

  it('redirects an unknown tab, and Outputs without outputs, to the overview', async () => {
    const first = renderJob(jobWire(), '/nonsense');
    await waitFor(() => expect(first.url()).toBe(`/jobs/${JOB_ID}?${ROUTE_QUERY}`));
    first.unmount();
    const readOnly = jobWire({
      container: { ...jobWire().container, volumes: [jobWire().container.volumes[0]] },
    });
    const second = renderJob(readOnly, '/outputs');
    // The named job's log is read for written outputs: it has none.
    await vi.waitFor(() => expect(second.logs).toHaveLength(1));
    second.logs[0].stream.write('epoch 1\n::set-output-ish name=x::y\n');
    second.logs[0].stream.end();
    await waitFor(() => expect(second.url()).toBe(`/jobs/${JOB_ID}?${ROUTE_QUERY}`));
    const tab = screen.getByRole('tab', { name: 'Outputs' });
    expect(tab.hasAttribute('disabled')).toBe(true);
    fireEvent.mouseEnter(tab.parentElement!);
    expect(
      await screen.findByText(
        'This job has no outputs: no writable volumes and no ::set-output lines in its log',
      ),
    ).toBeTruthy();
  });

  it('disables Outputs of an unnamed job, saying why, without reading its log', async () => {
    const { logs } = renderJob(jobWire({ name: undefined }));
    const tab = await screen.findByRole('tab', { name: 'Outputs' });
    expect(tab.hasAttribute('disabled')).toBe(true);
    fireEvent.mouseEnter(tab.parentElement!);
    expect(await screen.findByText('Only a named job has outputs')).toBeTruthy();
    expect(logs).toHaveLength(0);
  });

  it('lists writable mounts under Outputs, linked to Files once they exist', async () => {
    const status = (path: string) => `/api/v1/storage/acme/vision/${path}?op=GETFILESTATUS`;
    const first = renderJob(jobWire(), '/outputs', [
      { url: status('out'), status: 404, body: { error: 'not_found', message: 'No such path' } },
    ]);
    expect(await screen.findByText('Not written yet: the folder does not exist')).toBeTruthy();
    expect(screen.getByText('storage://default/acme/vision/out')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'storage://default/acme/vision/out' })).toBeNull();
    first.unmount();
    renderJob(jobWire(), '/outputs', [
      {
        url: status('out'),
        body: {
          FileStatus: {
            path: 'out',
            type: 'DIRECTORY',
            length: 0,
            modificationTime: 1,
            permission: 'write',
          },
        },
      },
    ]);
    const link = await screen.findByRole('link', { name: 'storage://default/acme/vision/out' });
    expect(link.getAttribute('href')).toBe(
      '/files?path=out&org=acme&cluster=default&project=vision',
    );
  });

  it('shows the outputs a job writes with ::set-output as its log streams', async () => {
    const readOnly = jobWire({
      container: { ...jobWire().container, volumes: [jobWire().container.volumes[0]] },
    });
    const { logs } = renderJob(readOnly, '/outputs');
    await vi.waitFor(() => expect(logs).toHaveLength(1));
    expect(logs[0].url).toBe(`${MONITORING}/${JOB_ID}/log`);
    // A line split across pieces, a value set twice, and commands stopped for a while.
    logs[0].stream.write('training\n::set-output name=acc');
    logs[0].stream.write('uracy::0.9\n::set-output name=model::v1\n::stop-commands::tok\n');
    logs[0].stream.write('::set-output name=fake::no\n::tok::\n::set-output name=model::v2');
    logs[0].stream.end();
    const table = await screen.findByRole('table', { name: 'Written outputs' });
    await vi.waitFor(() =>
      expect(
        within(table)
          .getAllByRole('row')
          .map((r) => r.textContent),
      ).toEqual(['NameValue', 'accuracy0.9', 'modelv2']),
    );
    expect(screen.getByRole('tab', { name: 'Outputs' }).hasAttribute('disabled')).toBe(false);
  });

  it('says "Permission Required" for a failure without a body, else "No such job"', async () => {
    const first = renderJob({ url: GET, status: 403 });
    expect(await screen.findByText('Permission Required')).toBeTruthy();
    first.unmount();
    renderJob({
      url: GET,
      status: 404,
      body: { error: 'not_found', message: 'Job not found' },
    });
    expect(await screen.findByText('No such job')).toBeTruthy();
  });

  it('warns that the job runs on the host and about the runtime', async () => {
    renderJob(
      jobWire({
        runtime: 'process',
        runtime_warning: 'bubblewrap is not installed: the job runs unsandboxed',
      }),
    );
    expect(await screen.findByText(/runs on the server's own machine/)).toBeTruthy();
    expect(screen.getByText('bubblewrap is not installed: the job runs unsandboxed')).toBeTruthy();
  });

  it('opens the top WebSocket with the bearer sub-protocol only while running', async () => {
    const { sockets: all } = renderJob(jobWire(), '/observability');
    const sockets = () => all.filter((s) => s.url.endsWith('/top'));
    await vi.waitFor(() => expect(sockets()).toHaveLength(1));
    expect(sockets()[0].url).toBe(`ws://localhost:8080/api/v1/jobs/${JOB_ID}/top`);
    expect(sockets()[0].protocols).toEqual(['top.apolo.us', 'bearer.token-alice']);
    sockets()[0].onopen?.();
    sockets()[0].onmessage?.({
      data: JSON.stringify({ cpu: 0.25, memory: 512, memory_bytes: 2 ** 29, timestamp: 1000 }),
    });
    const load = await screen.findByRole('group', { name: 'System Load' });
    // 0.25 of 0.5 cpu and 512 MiB of 1 GiB: both 50 % (usage × 100 / limit).
    expect(await within(load).findAllByText('50%')).toHaveLength(2);
    expect(await screen.findByRole('figure', { name: 'CPU, %' })).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Memory, %' })).toBeTruthy();
    expect(screen.queryByRole('figure', { name: 'GPU duty cycle, %' })).toBeNull();
  });

  it('disables Save image on the process runtime, saying why', async () => {
    renderJob(jobWire({ status: 'running', runtime: 'process' }));
    expect(await enabledActions()).not.toContain('Save image');
    const save = within(await actionsPanel()).getByRole('button', { name: 'Save image' });
    fireEvent.mouseEnter(save.parentElement!);
    expect(
      await screen.findByText(
        'This job runs on the process runtime: it has no container image to save',
      ),
    ).toBeTruthy();
  });

  it('links Observability to the metrics dashboard of the last 15 minutes', async () => {
    const samples = [0, 1, 2].map((i) => ({
      cpu: 0.1 * (i + 1),
      memory: 256,
      memory_bytes: 2 ** 28,
      timestamp: 1000 + i,
    }));
    const view = renderJob(jobWire(), '/observability', [
      { url: `${GET}/metrics`, body: { samples } },
    ]);
    fireEvent.click(await screen.findByRole('link', { name: 'Metrics: last 15 minutes' }));
    await vi.waitFor(() => expect(view.url()).toBe(`/jobs/${JOB_ID}/metrics?${ROUTE_QUERY}`));
    expect(await screen.findByRole('heading', { name: 'Metrics of train' })).toBeTruthy();
    expect(await screen.findByRole('figure', { name: 'CPU, %' })).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Memory, %' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Observability' }).getAttribute('aria-selected')).toBe(
      'true',
    );
  });

  it('refreshes the metrics dashboard every 10 seconds and shows a failure', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = renderJob(jobWire(), '/metrics', [
      { url: `${GET}/metrics`, status: 404, body: { error: 'not_found', message: 'Job gone' } },
    ]);
    expect(await screen.findByText('Job gone')).toBeTruthy();
    const gets = () => calls.filter((c) => c.url === `${GET}/metrics`).length;
    const before = gets();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await vi.waitFor(() => expect(gets()).toBeGreaterThan(before));
  });

  it('follows the status the server pushes, without waiting for the 10 s refresh', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const pending = jobWire({
      status: 'pending',
      history: {
        ...jobWire().history,
        status: 'pending',
        reason: 'Creating',
        started_at: undefined,
      },
    });
    const { sockets, calls } = renderJob(pending, '', [
      { url: `${GET}/scheduling`, body: { status: 'pending', position: 1, reasons: [] } },
    ]);
    expect(await screen.findByText('Why is this job waiting?')).toBeTruthy();
    await vi.waitFor(() => expect(sockets.some((s) => s.url.endsWith('/status_ws'))).toBe(true));
    const push = sockets.find((s) => s.url.endsWith('/status_ws'))!;
    expect(push.url).toBe(`ws://localhost:8080/api/v1/jobs/${JOB_ID}/status_ws`);
    expect(push.protocols).toEqual(['job-status.orrery', 'bearer.token-alice']);
    const gets = () => calls.filter((c) => c.url === GET).length;
    const before = gets();
    // The job ended a tenth of a second after it was created: the server says so at once.
    act(() =>
      push.onmessage?.({
        data: JSON.stringify(
          jobWire({
            status: 'succeeded',
            history: { ...jobWire().history, status: 'succeeded', exit_code: 0 },
          }),
        ),
      }),
    );
    const header = screen.getByRole('heading', { name: 'train', level: 2 }).parentElement!;
    expect(await within(header).findByText('succeeded')).toBeTruthy();
    expect(screen.queryByText('Why is this job waiting?')).toBeNull();
    // No request was needed, and the socket of a finished job is closed.
    expect(gets()).toBe(before);
    await vi.waitFor(() => expect(push.closed).toBe(true));
  });

  it('says to listen on $PORT where the job does not get its declared port', async () => {
    renderJob(jobWire({ runtime: 'process' }), '', [
      processRuntimeRoute({ http_port_assigned: true }),
    ]);
    const notice = await screen.findByText(/does not get the HTTP port it declares \(8080\)/);
    expect(notice.textContent).toContain('Make the job listen on $PORT, on 0.0.0.0');
    expect(screen.getByText('Listen on $PORT')).toBeTruthy();
  });

  it('links the HTTP URLs, by id and by name, to the job’s own host', async () => {
    const named = 'http://train--vision--acme.jobs.localhost:8080/';
    renderJob(jobWire({ http_url_named: named }));
    const link = await screen.findByRole('link', { name: named });
    expect(link.getAttribute('href')).toBe(named);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(screen.getByRole('link', { name: 'http://localhost:8080/jobs/train' })).toBeTruthy();
  });

  it('does not connect to a finished job', async () => {
    const { sockets } = renderJob(jobWire({ status: 'succeeded' }), '/observability');
    expect(await screen.findByText('Live load is shown while the job is running.')).toBeTruthy();
    expect(sockets).toHaveLength(0);
    expect(screen.queryByRole('group', { name: 'System Load' })).toBeNull();
  });
});
