import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { findEnabled } from '../../../test/world-permissions';
import { expectWhyNot } from '../../../test/permissions';
import type { AppTemplateWire } from '@orrery/contract';
import { appWire, INSTANCE_ID, renderApps, templateWire, V1, V1_READER } from '../test-fixtures';
import { processRuntimeRoute, NOT_ISOLATED } from '../../jobs/test-fixtures';

const TEMPLATE = `${V1}/templates/shell/latest`;
const shell = (over: Partial<AppTemplateWire> = {}) =>
  templateWire('shell', {
    description: 'A terminal',
    input: {
      type: 'object',
      properties: {
        workdir: { type: 'string', title: 'Working directory', default: '/home' },
        history_lines: { type: 'integer', title: 'History lines' },
      },
      required: ['workdir'],
    },
    ...over,
  });
const install = async () => fireEvent.click(await findEnabled('Install'));

describe('Install an app', () => {
  it('renders the header and the form, posts the input and opens the new instance', async () => {
    const { calls, url } = renderApps('/apps/shell/install', [
      { url: TEMPLATE, body: shell() },
      { method: 'POST', url: `${V1}/instances`, body: appWire({ state: 'queued' }) },
      { url: /\/apis\/apps\/v2\/instances\//, body: appWire({ state: 'queued' }) },
      { url: /\/instances\/[^/]+\/(input|output|events)$/, status: 404 },
    ]);
    expect(await screen.findByRole('heading', { name: 'Shell' })).toBeTruthy();
    expect(screen.getByText('Version 1.0.0')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/History lines/), { target: { value: '500' } });
    fireEvent.change(screen.getByLabelText('Display name'), { target: { value: 'Mine' } });
    await install();
    expect(await screen.findByText('Job is being installed')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST' && c.url.endsWith('/instances'))!;
    expect(post.body).toEqual({
      template_name: 'shell',
      template_version: '1.0.0',
      display_name: 'Mine',
      input: { workdir: '/home', history_lines: 500 },
    });
    await vi.waitFor(() => expect(url()).toMatch(new RegExp(`^/apps/instances/${INSTANCE_ID}\\?`)));
  });

  it('refuses an empty required field before sending', async () => {
    const { calls } = renderApps('/apps/shell/install', [{ url: TEMPLATE, body: shell() }]);
    fireEvent.change(await screen.findByLabelText(/Working directory/), { target: { value: '' } });
    await install();
    expect(await screen.findByText('Please fill in all required fields')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/instances'))).toBe(false);
  });

  it("puts the server's field errors on the fields", async () => {
    renderApps('/apps/shell/install', [
      { url: TEMPLATE, body: shell() },
      {
        method: 'POST',
        url: `${V1}/instances`,
        status: 400,
        body: {
          error: 'invalid',
          message: 'Invalid input',
          errors: [{ path: ['workdir'], message: 'Must be an absolute path' }],
        },
      },
    ]);
    await screen.findByLabelText(/Working directory/);
    await install();
    expect(await screen.findByText('Must be an absolute path')).toBeTruthy();
  });

  it("shows the server's message as a toast when no field matches", async () => {
    renderApps('/apps/shell/install', [
      { url: TEMPLATE, body: shell() },
      {
        method: 'POST',
        url: `${V1}/instances`,
        status: 400,
        body: { error: 'invalid', message: 'No preset name was found for the app in the cluster' },
      },
    ]);
    await screen.findByLabelText(/Working directory/);
    await install();
    expect(
      await screen.findByText('No preset name was found for the app in the cluster'),
    ).toBeTruthy();
  });

  it('disables Install with the reason when this installation cannot run the template', async () => {
    renderApps('/apps/shell/install', [
      {
        url: TEMPLATE,
        body: shell({ available: false, unavailable_reason: 'Needs the docker runtime' }),
      },
    ]);
    expect(await screen.findByText('Needs the docker runtime')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Install' })).toHaveProperty('disabled', true);
  });

  it('tells every user before Install that jobs are not isolated on this installation', async () => {
    renderApps('/apps/shell/install', [
      { url: TEMPLATE, body: shell() },
      processRuntimeRoute({ isolation_warning: NOT_ISOLATED }),
    ]);
    expect(await screen.findByText(NOT_ISOLATED)).toBeTruthy();
    expect(screen.getByText('Jobs are not isolated')).toBeTruthy();
  });

  it('disables Install for a project reader', async () => {
    renderApps(
      '/apps/shell/install',
      [{ url: `${V1_READER}/templates/shell/latest`, body: shell() }],
      'nlp',
    );
    await expectWhyNot('Install', 'You have read access here; this needs write access');
    // Said before the form is filled in, not only on the button.
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain(
      'You have read access here; this needs write access',
    );
  });

  it('says so when the version does not exist', async () => {
    renderApps('/apps/shell/install/9.9.9', [
      {
        url: `${V1}/templates/shell/9.9.9`,
        status: 404,
        body: { error: 'not_found', message: 'x' },
      },
    ]);
    expect(await screen.findByText('App template was not found for this version')).toBeTruthy();
  });
});
