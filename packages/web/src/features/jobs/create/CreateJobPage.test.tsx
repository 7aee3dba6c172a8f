import { act, fireEvent, screen, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { AppTemplate, Preset, toCamel } from '@orrery/contract';
import { describe, expect, it, vi } from 'vitest';
// The real built-in template's schema, so that the page and the server cannot drift apart.
import jobInput from '../../../../../server/src/modules/apps/templates/job/1.0.0/input.schema.json';
import { addEnvVariable } from '../../../forms/testdata/render-form';
import { world } from '../../../test/fixtures';
import { stubFetch, type CannedResponse } from '../../../test/fetch';
import { expectOffered, expectWhyNot, permissionsOf } from '../../../test/permissions';
import { renderSignedIn, settled } from '../../../test/render';
import CreateJobPage from './CreateJobPage';
import { processRuntimeRoute, NOT_ISOLATED, JOBS_REFUSED } from '../test-fixtures';

// What the server answers for the built-in `job` template, checked against the wire contract.
const jobTemplate = AppTemplate.parse({
  name: 'job',
  title: 'Job',
  version: '1.0.0',
  short_description: 'Run a command in an image with a resource preset.',
  tags: ['job'],
  logo: null,
  pub_date: '2026-01-01',
  available: true,
  unavailable_reason: null,
  description: 'A job runs one command in a container image.',
  input: jobInput,
  output: {},
  assets: [],
  external_urls: [],
  runtimes: ['process'],
  is_latest: true,
});
const TEMPLATE_URL = '/apis/apps/v1/cluster/default/org/acme/project/vision/templates/job/latest';
const CREATE_URL = '/api/v1/jobs?from_preset';
const ROUTE = '/jobs/new?org=acme&cluster=default&project=vision';

const preset = (name: string, cpu: number, memory: number) =>
  toCamel(
    Preset.parse({
      name,
      credits_per_hour: '1',
      cpu,
      memory,
      memory_mb: memory / 2 ** 20,
      scheduler_enabled: false,
      preemptible_node: false,
      is_preemptible: false,
      is_preemptible_node_required: false,
      resource_pool_names: [],
      available_resource_pool_names: [],
    }),
  );

function renderPage(responses: CannedResponse[]) {
  const stub = stubFetch(responses);
  const { user, sessionConfig } = world();
  sessionConfig.clusters![0].resourcePresets = [
    preset('cpu-tiny', 0.1, 2 ** 28),
    preset('cpu-small', 1, 4e9),
  ];
  const view = renderSignedIn(<CreateJobPage />, { user, sessionConfig, route: ROUTE });
  return { ...stub, ...view };
}
const WRITER = permissionsOf([{ prefix: 'job://default/acme/vision', have: 'write' }]);
const withTemplate = (more: CannedResponse[] = [], grants = WRITER) =>
  renderPage([{ url: TEMPLATE_URL, body: jobTemplate }, grants, ...more]);
const type = (label: RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const isCreate = (c: { method: string; url: string }) =>
  c.method === 'POST' && c.url === CREATE_URL;
/** Create job is offered once the permission engine said so; then it is clicked. */
const submit = async () => {
  await expectOffered('Create job');
  fireEvent.click(screen.getByRole('button', { name: 'Create job' }));
};

describe('Create new job page', () => {
  it('says so when the job template is missing', async () => {
    renderPage([{ url: TEMPLATE_URL, status: 404, body: { error: 'not_found', message: 'x' } }]);
    expect(await screen.findByText('Required template job not found')).toBeTruthy();
  });

  it('says so when the job template has no inputs', async () => {
    renderPage([{ url: TEMPLATE_URL, body: { ...jobTemplate, input: {} } }]);
    expect(await screen.findByText('No job template found')).toBeTruthy();
  });

  it.each([
    ['process', true],
    ['docker', false],
  ])('on the %s runtime, says before Create whether the image is used', async (name, note) => {
    const { queryClient } = withTemplate([
      {
        url: '/api/v1/jobs/runtime',
        body: { name, can_save_image: !note, uses_image: !note },
      },
    ]);
    expect(await screen.findByRole('button', { name: 'Create job' })).toBeTruthy();
    const text =
      "This installation runs jobs on the process runtime: the image is not used, and the command runs on the host system's tools.";
    if (note) expect(await screen.findByText(text)).toBeTruthy();
    else {
      // The page has the runtime's answer and has drawn it.
      expect(queryClient.getQueryState(['jobs', 'runtime'])).toBeTruthy();
      await settled(queryClient);
      expect(queryClient.getQueryState(['jobs', 'runtime'])?.status).toBe('success');
      expect(screen.queryByText(text)).toBeNull();
    }
  });

  it('tells every user before Create that jobs are not isolated on this installation', async () => {
    withTemplate([processRuntimeRoute({ isolation_warning: NOT_ISOLATED })]);
    expect(await screen.findByText(NOT_ISOLATED)).toBeTruthy();
    expect(screen.getByText('Jobs are not isolated')).toBeTruthy();
    // Warned, not refused: the writer may still create the job.
    await expectOffered('Create job');
  });

  it('keeps Create disabled with the reason where the installation refuses every job', async () => {
    const { calls } = withTemplate([processRuntimeRoute({ refused_reason: JOBS_REFUSED })]);
    expect(await screen.findByText(JOBS_REFUSED)).toBeTruthy();
    await expectWhyNot('Create job', JOBS_REFUSED);
    expect(calls.some(isCreate)).toBe(false);
  });

  it('says, as soon as the form asks for them, what this installation does not give a job', async () => {
    const volumesRefused =
      'Volumes need bubblewrap on the process runtime (apt-get install bubblewrap); this server runs jobs without it';
    withTemplate([
      processRuntimeRoute({ http_port_assigned: true, volumes_refused_reason: volumesRefused }),
    ]);
    await screen.findByLabelText(/^Image/);
    expect(screen.queryByText('Listen on $PORT')).toBeNull();
    expect(screen.queryByText(volumesRefused)).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: /HTTP/ }));
    expect(await screen.findByText('Listen on $PORT')).toBeTruthy();
    expect(screen.getByText(/does not get the HTTP port it declares \(80\)/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add volume' }));
    expect(await screen.findByText(volumesRefused)).toBeTruthy();
    expect(screen.getByText('Volumes cannot be mounted here')).toBeTruthy();
  });

  it('keeps a project reader from sending the form, and says why', async () => {
    withTemplate([], permissionsOf([{ prefix: 'job://default/acme/vision', have: 'read' }]));
    await expectWhyNot('Create job', 'You have read access here; this needs write access');
  });

  it('renders the template with the fallback preset and refuses an empty image', async () => {
    const { calls } = withTemplate();
    expect(await screen.findByRole('heading', { name: 'Create new job' })).toBeTruthy();
    await vi.waitFor(() =>
      expect((screen.getByRole('combobox', { name: /Preset/ }) as HTMLInputElement).value).toMatch(
        /^cpu-small/,
      ),
    );
    await submit();
    expect(await screen.findByText('Please fill in all required fields')).toBeTruthy();
    expect(screen.getByText('Required')).toBeTruthy();
    expect(calls.some(isCreate)).toBe(false);
  });

  it('says a pattern in words on its field, without the required-fields toast', async () => {
    // Toasts are global: those of the tests before are gone first.
    act(() => notifications.clean());
    const { calls } = withTemplate();
    await screen.findByLabelText(/^Image/);
    type(/^Image/, 'ubuntu:24.04');
    type(/^Name/, 'My Job');
    await submit();
    expect(
      await screen.findByText(
        'Value does not match the required pattern: lowercase letters, digits and single hyphens, starting with a letter',
      ),
    ).toBeTruthy();
    // Whatever the submit showed is drawn within a macrotask.
    await act(() => new Promise((done) => setTimeout(done, 0)));
    expect(screen.queryByText('Please fill in all required fields')).toBeNull();
    expect(calls.some(isCreate)).toBe(false);
  });

  it('sends the from_preset body and opens the new job', async () => {
    const { calls, url } = withTemplate([
      { method: 'POST', url: CREATE_URL, status: 202, body: { id: 'job-1' } },
    ]);
    await screen.findByLabelText(/^Image/);
    type(/^Image/, 'ubuntu:24.04');
    type(/^Name/, 'train-1');
    type(/^Command/, 'echo hi');
    type(/^Tags/, 'a, b, a');
    fireEvent.click(screen.getByRole('checkbox', { name: /HTTP/ }));
    await addEnvVariable('MODE', 'fast');
    fireEvent.click(screen.getByRole('button', { name: 'Add volume' }));
    type(/^Resource/, 'storage:data');
    type(/^Mount path/, '/data');
    // The second volume has a path but no resource: it is skipped with the warning.
    fireEvent.click(screen.getByRole('button', { name: 'Add volume' }));
    fireEvent.change(screen.getAllByLabelText(/^Mount path/)[1], { target: { value: '/x' } });
    await submit();
    expect(
      await screen.findByText(
        'One of the volumes was skipped because "path" or "resource" were missed',
      ),
    ).toBeTruthy();
    await vi.waitFor(() =>
      expect(url()).toBe('/jobs/job-1?org=acme&cluster=default&project=vision'),
    );
    const post = calls.find(isCreate)!;
    expect(post.url).toBe(CREATE_URL);
    expect(post.body).toEqual({
      cluster_name: 'default',
      org_name: 'acme',
      project_name: 'vision',
      preset_name: 'cpu-small',
      image: 'ubuntu:24.04',
      name: 'train-1',
      tags: ['a', 'b'],
      command: 'echo hi',
      http: { port: 80, requires_auth: true, health_check_path: '/' },
      env: { MODE: 'fast' },
      secret_env: {},
      volumes: [
        {
          src_storage_uri: 'storage://default/acme/vision/data',
          dst_path: '/data',
          read_only: true,
        },
      ],
      disk_volumes: [],
      secret_volumes: [],
      tty: false,
      resources: { shm: false },
      max_run_time_minutes: 1440,
      restart_policy: 'never',
      priority: 'normal',
      wait_for_jobs_quota: false,
      pass_config: false,
      privileged: false,
    });
  });

  it('offers Workers where the runtime runs jobs of several, and sends them as nodes', async () => {
    const { calls } = withTemplate([
      processRuntimeRoute(),
      { method: 'POST', url: CREATE_URL, status: 202, body: { id: 'job-1' } },
    ]);
    await screen.findByLabelText(/^Image/);
    type(/^Image/, 'ubuntu:24.04');
    type(/^Command/, 'torchrun train.py');
    type(/^Workers/, '2');
    await submit();
    await vi.waitFor(() => expect(calls.some(isCreate)).toBe(true));
    expect(calls.find(isCreate)!.body).toMatchObject({ command: 'torchrun train.py', nodes: 2 });
  });

  it('does not offer Workers where the runtime runs no job of several', async () => {
    withTemplate([
      processRuntimeRoute({ workers_refusal: 'The docker runtime does not run jobs of several' }),
    ]);
    await screen.findByLabelText(/^Image/);
    expect(screen.queryByLabelText(/^Workers/)).toBeNull();
  });

  it('puts server field errors on their fields', async () => {
    withTemplate([
      {
        method: 'POST',
        url: CREATE_URL,
        status: 400,
        body: {
          error: 'validation',
          message: 'Bad',
          errors: [
            { path: 'working_dir', message: 'Must be an absolute path' },
            { path: 'env.MODE', message: 'Invalid environment variable name' },
          ],
        },
      },
    ]);
    await screen.findByLabelText(/^Image/);
    type(/^Image/, 'ubuntu');
    type(/^Working directory/, 'rel');
    await addEnvVariable('MODE', 'x');
    await submit();
    expect(await screen.findByText('Must be an absolute path')).toBeTruthy();
    expect(screen.getByText('Invalid environment variable name')).toBeTruthy();
    expect(screen.queryByText('Bad')).toBeNull();
  });

  it('shows other errors as a toast', async () => {
    withTemplate([
      {
        method: 'POST',
        url: CREATE_URL,
        status: 409,
        body: { error: 'conflict', message: 'No credits left for acme' },
      },
    ]);
    await screen.findByLabelText(/^Image/);
    type(/^Image/, 'ubuntu');
    await submit();
    const toast = await screen.findByText('No credits left for acme');
    expect(
      within(toast.closest('.mantine-Notification-root') as HTMLElement).getByText('Error'),
    ).toBeTruthy();
  });
});
