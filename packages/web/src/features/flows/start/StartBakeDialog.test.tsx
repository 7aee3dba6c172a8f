import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../../test/fetch';
import { findEnabled, worldPermissions } from '../../../test/world-permissions';
import { entry, LIST, listing } from '../../files/test-fixtures';
import {
  BAKE_ID,
  BAKE_URL,
  bakeWire,
  FLOW_ID,
  FLOWS_URL,
  renderFlows,
  TASKS_URL,
} from '../test-fixtures';

const PERMISSIONS = '/api/v1/permissions/check';
const PARAMS = '/api/v1/flow/bakes/params';
const START = '/api/v1/flow/bakes/start';
const YAML = 'kind: batch\ntasks:\n  - id: first\n    image: busybox\n    cmd: echo hi\n';

const openDialog = async () => {
  fireEvent.click(await findEnabled('Start bake'));
  return screen.findByRole('dialog');
};

describe('Start bake dialog', () => {
  it('asks for the flow name and the batch file before calling the server', async () => {
    const { calls } = stubFetch([worldPermissions(), { url: FLOWS_URL, body: [] }]);
    renderFlows();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(await within(dialog).findByText('Enter the flow’s name')).toBeTruthy();
    expect(within(dialog).getByText('Paste a batch file')).toBeTruthy();
    fireEvent.click(within(dialog).getByText('Project file'));
    expect(await within(dialog).findByText('Choose a batch file')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST' && c.url !== PERMISSIONS)).toHaveLength(0);
  });

  it('shows the server’s message that names the refused line', async () => {
    const message = 'line 5: the key "services" is not supported in a batch flow';
    stubFetch([
      worldPermissions(),
      { url: FLOWS_URL, body: [] },
      { method: 'POST', url: PARAMS, status: 400, body: { error: 'bad_request', message } },
    ]);
    renderFlows();
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText(/Flow name/), { target: { value: 'demo' } });
    fireEvent.change(within(dialog).getByLabelText('Batch YAML'), { target: { value: YAML } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(await within(dialog).findByText(message)).toBeTruthy();
  });

  it('shows the server’s refusal of a bake too big to start, with the limit and the count', async () => {
    const message =
      'line 4: the matrix of task `t_${{ matrix.a }}` makes 10000 combinations: a matrix may make at most 1000';
    stubFetch([
      worldPermissions(),
      { url: FLOWS_URL, body: [] },
      { method: 'POST', url: PARAMS, body: { batch: 'batch', title: null, tasks: 1, params: [] } },
      { method: 'POST', url: START, status: 400, body: { error: 'bad_request', message } },
    ]);
    renderFlows();
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText(/Flow name/), { target: { value: 'demo' } });
    fireEvent.change(within(dialog).getByLabelText('Batch YAML'), { target: { value: YAML } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Start' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(message);
  });

  it('reads a batch file chosen among the project’s files', async () => {
    const { calls } = stubFetch([
      worldPermissions(),
      { url: FLOWS_URL, body: [] },
      { url: LIST(), body: listing(entry('flows', 'DIRECTORY')) },
      { url: LIST('flows'), body: listing(entry('train.yml')) },
      {
        method: 'POST',
        url: PARAMS,
        status: 404,
        body: { error: 'not_found', message: 'File not found: storage:flows/train.yml' },
      },
    ]);
    renderFlows();
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText(/Flow name/), { target: { value: 'demo' } });
    fireEvent.click(within(dialog).getByText('Project file'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Choose file' }));
    const chooser = await screen.findByRole('dialog', { name: 'Choose a Files Path' });
    const folder = await within(chooser).findByRole('button', { name: 'Folder flows' });
    fireEvent.click(folder);
    fireEvent.click(folder);
    fireEvent.click(await within(chooser).findByRole('button', { name: 'File train.yml' }));
    // One click selects once the double-click window has passed.
    fireEvent.click(await within(chooser).findByRole('button', { name: 'Select' }));
    expect(await within(dialog).findByText('storage:flows/train.yml')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(await within(dialog).findByText('File not found: storage:flows/train.yml')).toBeTruthy();
    expect(calls.find((c) => c.url === PARAMS)!.body).toEqual({
      file: 'storage:flows/train.yml',
      cluster: 'default',
      org_name: 'acme',
      project_name: 'vision',
    });
  });

  it('asks for each param with its default and help, then starts the bake and opens its graph', async () => {
    const { calls } = stubFetch([
      worldPermissions(),
      { url: FLOWS_URL, body: [] },
      {
        method: 'POST',
        url: PARAMS,
        body: {
          batch: 'batch',
          title: 'Training',
          tasks: 3,
          params: [
            { name: 'learningRate', default: '0.1', descr: 'Step size' },
            { name: 'dataset', default: null, descr: null },
          ],
        },
      },
      { method: 'POST', url: START, status: 201, body: bakeWire('pending', { name: 'first-run' }) },
      { url: BAKE_URL, body: bakeWire('pending', { name: 'first-run' }) },
      { url: TASKS_URL, body: [] },
    ]);
    const view = renderFlows();
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText(/Flow name/), { target: { value: 'demo' } });
    fireEvent.change(within(dialog).getByLabelText('Batch YAML'), { target: { value: YAML } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));

    const rate = await within(dialog).findByLabelText('learningRate');
    expect(rate).toHaveProperty('value', '0.1');
    expect(within(dialog).getByText('Step size')).toBeTruthy();
    expect(within(dialog).getByText(/Batch “batch”: 3 tasks/)).toBeTruthy();
    // A param without a default must be given.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start' }));
    expect(await within(dialog).findByText('Give a value for dataset')).toBeTruthy();
    expect(calls.filter((c) => c.url === START)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/dataset/), { target: { value: 'mnist' } });
    fireEvent.change(within(dialog).getByLabelText(/Bake name/), {
      target: { value: 'first-run' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start' }));
    await waitFor(() =>
      expect(view.url()).toContain(`/flows/${FLOW_ID}/demo/bakes/${BAKE_ID}/first-run`),
    );
    const start = calls.find((c) => c.url === START)!;
    // Param names are the user's own: sent exactly as the batch file spells them.
    expect(start.body).toEqual({
      content: YAML,
      flow_name: 'demo',
      params: { learningRate: '0.1', dataset: 'mnist' },
      name: 'first-run',
      tags: [],
      cluster: 'default',
      org_name: 'acme',
      project_name: 'vision',
    });
    expect(calls.find((c) => c.url === PARAMS)!.body).toEqual({
      content: YAML,
      cluster: 'default',
      org_name: 'acme',
      project_name: 'vision',
    });
  });
});
