import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { findEnabled } from '../../../test/world-permissions';
import { expectWhyNot } from '../../../test/permissions';
import { settled } from '../../../test/render';
import type { AppInstanceWire, AppTemplateWire } from '@orrery/contract';
import type { CannedResponse } from '../../../test/fetch';
import {
  appWire,
  INSTANCE,
  INSTANCE_ID,
  renderApps,
  templateWire,
  V1,
  V1_READER,
} from '../test-fixtures';
import { configurableInput, configurableKeys } from './configurable';

const ROUTE = `/apps/instances/${INSTANCE_ID}`;
const PUT_URL = `${V1}/instances/${INSTANCE_ID}`;

/** The shell's input schema as shipped: only the idle timeout may change after install. */
const SHELL_INPUT = {
  type: 'object',
  required: ['preset'],
  properties: {
    preset: { $ref: '#/$defs/Preset' },
    workdir: { type: 'string', title: 'Working directory', default: '/home' },
    idle_timeout_minutes: {
      type: 'integer',
      minimum: 0,
      maximum: 10080,
      default: 60,
      'x-title': 'Idle timeout (minutes)',
      'x-is-configurable': true,
    },
  },
  $defs: {
    Preset: {
      type: 'object',
      'x-type': 'Preset',
      'x-title': 'Resource Preset',
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1 } },
    },
  },
};
const shell = (over: Partial<AppTemplateWire> = {}) =>
  templateWire('shell', { input: SHELL_INPUT as AppTemplateWire['input'], ...over });

function answers(
  app: Partial<AppInstanceWire> = {},
  template = shell(),
  v1 = V1,
): CannedResponse[] {
  return [
    { url: INSTANCE, body: appWire(app) },
    { url: `${v1}/templates/shell/1.0.0`, body: template },
    {
      url: `${v1}/instances/${INSTANCE_ID}/input?restore_ref=true`,
      body: { preset: { name: 'cpu-small' }, workdir: '/srv', idle_timeout_minutes: 60 },
    },
    { url: /\/instances\/[^/]+\/(input|output|events)$/, status: 404 },
  ];
}

const idleTimeout = () => screen.findByLabelText(/Idle timeout/);
const save = async () => fireEvent.click(await findEnabled('Save'));

describe('Configure an installed app', () => {
  it('edits only the configurable inputs, sends only them and returns to the app', async () => {
    const put: CannedResponse = { method: 'PUT', url: PUT_URL, body: appWire() };
    const { calls, url } = renderApps(`${ROUTE}/configure`, [put, ...answers()]);
    expect(await screen.findByRole('heading', { name: 'Configure My shell' })).toBeTruthy();
    expect(((await idleTimeout()) as HTMLInputElement).value).toBe('60');
    // Filled with the current input; what the server would refuse is shown but locked.
    const workdir = screen.getByLabelText(/Working directory/) as HTMLInputElement;
    expect(workdir.value).toBe('/srv');
    expect(workdir.matches(':disabled')).toBe(true);
    expect((await idleTimeout()).matches(':disabled')).toBe(false);

    fireEvent.change(await idleTimeout(), { target: { value: '15' } });
    await save();
    expect(await screen.findByText('App configuration saved')).toBeTruthy();
    const sent = calls.find((c) => c.method === 'PUT')!;
    expect(sent.body).toEqual({ input: { idle_timeout_minutes: 15 } });
    await vi.waitFor(() => expect(url()).toMatch(new RegExp(`^${ROUTE}\\?`)));
  });

  it('sends a changed display name with the input', async () => {
    const { calls } = renderApps(`${ROUTE}/configure`, [
      { method: 'PUT', url: PUT_URL, body: appWire() },
      ...answers(),
    ]);
    fireEvent.change(await screen.findByLabelText('Display name'), {
      target: { value: 'Terminal' },
    });
    await save();
    await screen.findByText('App configuration saved');
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      display_name: 'Terminal',
      input: { idle_timeout_minutes: 60 },
    });
  });

  it("shows the server's 400 on the field it names", async () => {
    renderApps(`${ROUTE}/configure`, [
      {
        method: 'PUT',
        url: PUT_URL,
        status: 400,
        body: {
          error: 'validation',
          message: 'idle_timeout_minutes: must be multiple of 5',
          errors: [{ path: ['idle_timeout_minutes'], message: 'must be multiple of 5' }],
        },
      },
      ...answers(),
    ]);
    fireEvent.change(await idleTimeout(), { target: { value: '7' } });
    await save();
    expect(await screen.findByText('must be multiple of 5')).toBeTruthy();
    expect((await idleTimeout()).getAttribute('aria-invalid')).toBe('true');
  });

  it("shows the server's message when no field matches, and stays on the page", async () => {
    const { url } = renderApps(`${ROUTE}/configure`, [
      {
        method: 'PUT',
        url: PUT_URL,
        status: 409,
        body: { error: 'conflict', message: 'The app is being uninstalled' },
      },
      ...answers(),
    ]);
    await idleTimeout();
    await save();
    expect(await screen.findByText('The app is being uninstalled')).toBeTruthy();
    expect(url()).toMatch(/\/configure\?/);
  });

  it('refuses to save while the app is uninstalling, with the reason', async () => {
    const { calls } = renderApps(`${ROUTE}/configure`, answers({ state: 'uninstalling' }));
    expect(await screen.findByText('The app is already being uninstalled')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('refuses to save for a project reader who opens the page directly', async () => {
    renderApps(`${ROUTE}/configure`, answers({ project_name: 'nlp' }, shell(), V1_READER), 'nlp');
    await expectWhyNot('Save', 'You have read access here; this needs write access');
    // Nothing to type into in vain: even the configurable inputs are shown as installed.
    expect((await idleTimeout()).matches(':disabled')).toBe(true);
    expect(screen.getByLabelText('Display name').matches(':disabled')).toBe(true);
  });
});

describe('Configure on the App details page', () => {
  it('leads to the Configure page for a writer when the template has configurable inputs', async () => {
    renderApps(ROUTE, answers());
    const link = await screen.findByRole('link', { name: 'Configure' });
    expect(link.getAttribute('href')).toMatch(new RegExp(`^${ROUTE}/configure\\?`));
  });

  it('is disabled with the reason while the app is uninstalling', async () => {
    renderApps(ROUTE, answers({ state: 'uninstalling' }));
    const button = await screen.findByRole('button', { name: 'Configure' });
    expect(button).toHaveProperty('disabled', true);
    fireEvent.mouseEnter(button.parentElement!);
    expect(await screen.findAllByText('The app is already being uninstalled')).not.toHaveLength(0);
  });

  it('is not offered when no input may change after install', async () => {
    const fixed = shell({
      input: { type: 'object', properties: { workdir: { type: 'string' } } },
    });
    const { calls, queryClient } = renderApps(ROUTE, answers({}, fixed));
    await screen.findByRole('heading', { name: 'My shell', level: 2 });
    await vi.waitFor(() =>
      expect(calls.some((c) => c.url.endsWith('/templates/shell/1.0.0'))).toBe(true),
    );
    await settled(queryClient);
    expect(screen.queryByText('Configure')).toBeNull();
  });

  it('is not offered to a project reader', async () => {
    const { queryClient } = renderApps(
      ROUTE,
      answers({ project_name: 'nlp' }, shell(), V1_READER),
      'nlp',
    );
    await screen.findByRole('heading', { name: 'My shell', level: 2 });
    await settled(queryClient);
    expect(screen.queryByText('Configure')).toBeNull();
  });
});

describe('configurable inputs', () => {
  it('are the top-level inputs marked x-is-configurable, on themselves or an anyOf branch', () => {
    const schema = {
      type: 'object' as const,
      properties: {
        a: { type: 'string' as const, 'x-is-configurable': true },
        b: { type: 'string' as const },
        c: { anyOf: [{ $ref: '#/$defs/C' }, { type: 'null' as const }] },
        d: { type: 'string' as const, 'x-is-configurable': false },
      },
      $defs: { C: { type: 'object' as const, 'x-is-configurable': true } },
    };
    expect(configurableKeys(schema)).toEqual(['a', 'c']);
    expect(configurableInput({ a: 'x', b: 'y', c: null }, ['a', 'c', 'e'])).toEqual({
      a: 'x',
      c: null,
    });
  });
});
