import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appWire, templateSummary } from '../features/apps/test-fixtures';
import { stubFetch } from '../test/fetch';
import { world } from '../test/fixtures';
import type { Preset } from './environment';
import { JUPYTER_SCHEMA, LLM_INFERENCE_SCHEMA, SHELL_SCHEMA } from './testdata/apolo-schemas';
import { addEnvVariable, PLACE, renderForm, type } from './testdata/render-form';

const GB = 1e9;
const PRESETS = [
  { name: 'cpu-small', cpu: 1, memory: 4 * GB, creditsPerHour: '0.5' },
  {
    name: 'gpu-a100',
    cpu: 8,
    memory: 64 * GB,
    creditsPerHour: '12',
    nvidiaGpu: { count: 2, model: 'A100', memory: 80 * GB },
    isPreemptible: false,
    schedulerEnabled: true,
  },
] as Preset[];
const V1 = '/apis/apps/v1/cluster/default/org/acme/project/vision';
const VALUES_URL = `${V1}/instances/values?type=MLFlowTrackingServerURL&restore_ref=true`;
const INSTANCES_URL =
  '/apis/apps/v2/instances?cluster=default&org=acme&project=vision&page=1&size=100';
/** The project's instances and the catalogue, which name the candidates. */
const NAMING = [
  {
    url: INSTANCES_URL,
    body: {
      items: [
        appWire({
          id: 'mlflow-1',
          name: 'mlflow-9c2e',
          display_name: 'Team MLflow',
          template_name: 'mlflow',
        }),
      ],
      pages: 1,
    },
  },
  { url: `${V1}/templates`, body: [templateSummary('mlflow', { title: 'MLflow' })] },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- nested test values
type Nested = Record<string, any>;
const visibleLabels = () =>
  [...document.querySelectorAll('label')].map((l) => l.textContent?.replace(/\s*\*$/, ''));

describe("Apolo's shell template through the engine", () => {
  it('shows the preset picker and the networking group with platform auth chosen', () => {
    const f = renderForm(SHELL_SCHEMA, { presets: PRESETS });
    expect(visibleLabels()).toEqual(['Resource Preset', 'Authentication']);
    expect(screen.getByRole('heading', { name: 'Networking Settings' })).toBeTruthy();
    expect(screen.getByText(/Configure network access, HTTP authentication/)).toBeTruthy();
    expect(
      (screen.getByRole('combobox', { name: 'Authentication' }) as HTMLInputElement).value,
    ).toBe('Platform Authentication');
    // The cluster has the fallback preset: the form picks it by itself.
    expect(f.values().preset).toEqual({ name: 'cpu-small' });
    expect(f.valid()).toBe(true);
  });

  it('lists GPU model, memory, count and credits per hour, with a details modal', async () => {
    const f = renderForm(SHELL_SCHEMA, { presets: PRESETS });
    fireEvent.click(screen.getByRole('combobox', { name: 'Resource Preset' }));
    fireEvent.click(
      await screen.findByRole('option', {
        name: 'gpu-a100 · 8 CPU · 64 GB · 2 × A100 (80 GB) · 12 credits/h',
      }),
    );
    expect(f.values().preset).toEqual({ name: 'gpu-a100' });
    fireEvent.click(screen.getByRole('button', { name: 'Preset details' }));
    const modal = await screen.findByRole('dialog', { name: 'Resource Preset details' });
    const rows = within(modal)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toEqual([
      'Namegpu-a100',
      'CPU8',
      'Memory64 GB',
      'GPU2 × A100 (80 GB)',
      'Credits per hour12',
      'PreemptibleNo',
      'SchedulerRound-Robin',
    ]);
  });

  it('makes the app public only after the warning is confirmed', async () => {
    const f = renderForm(SHELL_SCHEMA, { presets: PRESETS });
    const auth = () => (f.values().networking as Nested).ingress_http.auth;
    const choose = async () => {
      fireEvent.click(screen.getByRole('combobox', { name: 'Authentication' }));
      fireEvent.click(await screen.findByRole('option', { name: 'No Authentication' }));
      return screen.findByRole('dialog', { name: 'Make the app public?' });
    };
    fireEvent.click(within(await choose()).getByRole('button', { name: 'Cancel' }));
    expect(auth()).toEqual({ type: 'apolo_auth', __type__: 'ApoloAuth' });
    fireEvent.click(within(await choose()).getByRole('button', { name: 'Make public' }));
    expect(auth()).toEqual({ type: 'no_auth' });
  });
});

describe("Apolo's jupyter template through the engine", () => {
  it('switches container settings, resetting the value, and takes an image and its tag', async () => {
    const f = renderForm(JUPYTER_SCHEMA, { presets: PRESETS });
    const settings = () => (f.values().jupyter_specific as Nested).container_settings;
    expect(settings()).toEqual({
      container_image: 'ghcr.io/neuro-inc/base:v25.3.0-runtime',
      __type__: 'DefaultContainer',
    });
    fireEvent.click(screen.getByRole('combobox', { name: 'Container Settings' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Custom Image' }));
    expect(settings()).toEqual({ container_image: { repository: '', tag: null } });
    type(/^Repository/, 'python:3.12');
    expect(settings().container_image.repository).toBe('python:3.12');
  });

  it('asks a storage path for the code mount and opens the collapsible on the error', async () => {
    const f = renderForm(JUPYTER_SCHEMA, { presets: PRESETS });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Override Default Storage Mount' }));
    type(/Platform Storage Path/, 'code');
    type(/Mount Path/, '/root/notebooks');
    const toggle = screen.getByRole('button', { name: 'Override Default Storage Mount' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(f.valid()).toBe(false);
    f.check();
    expect(await screen.findByText('The path must start with storage:')).toBeTruthy();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    type(/Platform Storage Path/, 'storage:code');
    f.check();
    expect(screen.queryByText('The path must start with storage:')).toBeNull();
    expect((f.values().jupyter_specific as Nested).override_code_storage_mount).toEqual({
      storage_uri: { path: 'storage:code' },
      mount_path: { path: '/root/notebooks' },
      mode: { mode: 'rw', __type__: 'ApoloMountMode' },
    });
  });

  it('in configure mode shows non-configurable inputs read-only', () => {
    renderForm(JUPYTER_SCHEMA, { presets: PRESETS }, { configure: true });
    const toggle = screen.getByRole('checkbox', { name: 'Override Default Storage Mount' });
    expect(toggle.matches(':disabled')).toBe(true);
    expect(screen.getByRole('combobox', { name: 'Resource Preset' }).matches(':disabled')).toBe(
      false,
    );
  });

  it('integration field: Choose app lists the candidates, Stop returns to the manual value', async () => {
    const { calls } = stubFetch([
      {
        url: VALUES_URL,
        body: {
          items: [
            {
              instance_id: 'mlflow-1',
              type: 'MLFlowTrackingServerURL',
              path: '$.server_url',
              value: { host: 'mlflow', port: 5000 },
            },
          ],
        },
      },
      ...NAMING,
    ]);
    const f = renderForm(JUPYTER_SCHEMA, { presets: PRESETS, place: PLACE });
    // Unset: Choose app, or enter a value.
    fireEvent.click(screen.getByRole('button', { name: 'Enter value' }));
    expect(f.values().mlflow_integration).toEqual({ internal_url: null, external_url: null });
    fireEvent.click(screen.getByRole('button', { name: 'Choose app' }));
    const modal = await screen.findByRole('dialog', { name: 'App Integrations' });
    // Named as the installed list names it, with its template and state; never by its id.
    const row = await within(modal).findByRole('row', { name: 'Team MLflow' });
    expect(within(row).getByText('$.server_url')).toBeTruthy();
    expect(within(row).getByText('MLflow')).toBeTruthy();
    expect(within(row).getByText('healthy')).toBeTruthy();
    expect(within(modal).queryByText('mlflow-1')).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Use' }));
    expect(f.values().mlflow_integration).toEqual({
      type: 'app-instance-ref',
      instance_id: 'mlflow-1',
      path: '$.server_url',
    });
    expect(screen.getByText('From app Team MLflow, output $.server_url')).toBeTruthy();
    expect(calls.map((c) => c.url).sort()).toEqual(
      [INSTANCES_URL, `${V1}/templates`, VALUES_URL].sort(),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(f.values().mlflow_integration).toEqual({ internal_url: null, external_url: null });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(f.values().mlflow_integration).toBeNull();
    expect(screen.getByRole('button', { name: 'Choose app' })).toBeTruthy();
  });

  it('a failed integration lookup shows that none is set up, without an error', async () => {
    stubFetch([{ url: VALUES_URL, status: 500, body: { message: 'boom' } }, ...NAMING]);
    renderForm(JUPYTER_SCHEMA, { presets: PRESETS, place: PLACE });
    fireEvent.click(screen.getByRole('button', { name: 'Choose app' }));
    const modal = await screen.findByRole('dialog', { name: 'App Integrations' });
    expect(await within(modal).findByText('Integrations Not Set Up')).toBeTruthy();
    expect(screen.queryByText('boom')).toBeNull();
  });
});

describe("Apolo's llm-inference template through the engine", () => {
  it('collapses advanced fields into the Advanced section', async () => {
    renderForm(LLM_INFERENCE_SCHEMA, { presets: PRESETS });
    expect(screen.getByRole('checkbox', { name: 'Public HTTP Ingress' })).toBeTruthy();
    expect(screen.getByLabelText(/^Model/)).toBeTruthy();
    expect(screen.getByLabelText('Tokenizer')).toBeTruthy();
    expect(screen.getByText('Server Extra Arguments')).toBeTruthy();
    expect(screen.getByText('Extra Environment Variables')).toBeTruthy();
    const advanced = screen.getByRole('button', { name: 'Advanced' });
    expect(advanced.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(advanced);
    expect(advanced.getAttribute('aria-expanded')).toBe('true');
    expect(await screen.findByRole('checkbox', { name: 'HTTP Autoscaling' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Docker Image' })).toBeTruthy();
  });

  it('requires the model; environment variables take a value or a secret', async () => {
    const secrets = '/api/v1/secrets?cluster_name=default&org_name=acme&project_name=vision';
    stubFetch([
      {
        url: secrets,
        body: [{ key: 'hf-token', owner: 'alice', org_name: 'acme', project_name: 'vision' }],
      },
    ]);
    const { user, sessionConfig } = world();
    const f = renderForm(
      LLM_INFERENCE_SCHEMA,
      { presets: PRESETS, place: PLACE },
      {
        render: {
          user,
          sessionConfig,
          withContext: true,
          route: '/apps?org=acme&cluster=default&project=vision',
        },
      },
    );
    f.check();
    expect(await screen.findByText('Required')).toBeTruthy();
    await addEnvVariable('MODE', 'fast');
    fireEvent.click(screen.getByRole('button', { name: 'Add secret' }));
    const modal = await screen.findByRole('dialog', { name: 'Add Environment Secret' });
    fireEvent.change(within(modal).getByLabelText(/Environment variable name/), {
      target: { value: 'HF_TOKEN' },
    });
    fireEvent.click(await within(modal).findByRole('combobox', { name: 'Secret' }));
    fireEvent.click(await screen.findByRole('option', { name: 'hf-token' }));
    fireEvent.click(within(modal).getByRole('button', { name: 'Add secret' }));
    expect(f.values().extra_env_vars).toEqual([
      { name: 'MODE', value: 'fast' },
      { name: 'HF_TOKEN', value: { key: 'hf-token' } },
    ]);
  });
});
