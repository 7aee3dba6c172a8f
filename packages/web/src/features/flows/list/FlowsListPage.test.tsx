import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../../test/fetch';
import { expectWhyNot } from '../../../test/permissions';
import { worldPermissions } from '../../../test/world-permissions';
import { FLOW_ID, FLOWS_URL, flowWire, renderFlows } from '../test-fixtures';

const READ_ONLY = 'You have read access here; this needs write access';
const NLP_FLOWS = '/api/v1/flow/projects?cluster=default&org_name=acme&project_name=nlp';

describe('Flows list', () => {
  it('says "No flows found" when the project has none, asking the server for JSON', async () => {
    const { calls } = stubFetch([worldPermissions(), { url: FLOWS_URL, body: [] }]);
    renderFlows();
    expect(await screen.findByText('No flows found')).toBeTruthy();
    expect(calls[0]!.headers.Accept).toBe('application/json');
  });

  it('shows each flow with its jobs tag and links to its real-time jobs and bakes', async () => {
    stubFetch([worldPermissions(), { url: FLOWS_URL, body: [flowWire('demo_flow')] }]);
    const view = renderFlows();
    const row = (await screen.findByText('demo_flow')).closest('tr')!;
    expect(within(row).getByText('project:demo-flow')).toBeTruthy();
    fireEvent.click(within(row).getByLabelText('View real-time jobs of demo_flow'));
    await waitFor(() => expect(view.url()).toContain('/jobs?flowName=demo_flow'));
    expect(view.url()).toContain(`projectId=${FLOW_ID}`);
    expect(view.url()).toContain('project=vision');
  });

  it('opens a flow’s bakes from View bakes', async () => {
    stubFetch([
      worldPermissions(),
      { url: FLOWS_URL, body: [flowWire('demo_flow')] },
      { url: /\/flow\/bakes\?/, body: [] },
    ]);
    const view = renderFlows();
    fireEvent.click(await screen.findByLabelText('View bakes of demo_flow'));
    expect(await screen.findByText('No bakes found')).toBeTruthy();
    expect(view.url()).toContain(`/flows/${FLOW_ID}/demo_flow`);
  });

  it('deletes a flow after confirming, and shows the server’s message when it refuses', async () => {
    const { calls } = stubFetch([
      worldPermissions(),
      { url: FLOWS_URL, body: [flowWire('demo_flow')] },
      {
        method: 'DELETE',
        url: `/api/v1/flow/projects/${FLOW_ID}`,
        status: 409,
        body: { error: 'conflict', message: 'Cancel the running bake first' },
      },
    ]);
    renderFlows();
    fireEvent.click(await screen.findByLabelText('Delete flow demo_flow'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Cancel the running bake first')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('keeps a project reader from deleting or starting, and says why', async () => {
    stubFetch([worldPermissions(), { url: NLP_FLOWS, body: [flowWire('demo_flow')] }]);
    renderFlows('', 'nlp');
    expect(await screen.findByLabelText('Delete flow demo_flow')).toHaveProperty('disabled', true);
    await expectWhyNot('Start bake', READ_ONLY);
  });
});
