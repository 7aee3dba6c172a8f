import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../../test/fetch';
import { worldPermissions } from '../../../test/world-permissions';
import { BAKE_ID, BAKES_URL, bakeWire, FLOW_ID, renderFlows } from '../test-fixtures';

const ROUTE = `/${FLOW_ID}/demo_flow`;

describe('Bakes of a flow', () => {
  it('says "No bakes found" when the flow has none', async () => {
    stubFetch([worldPermissions(), { url: BAKES_URL, body: [] }]);
    renderFlows(ROUTE);
    expect(await screen.findByText('No bakes found')).toBeTruthy();
    expect(screen.getByText('Bakes of demo_flow')).toBeTruthy();
  });

  it('shows bake, id, executor, status and tags, and offers Kill only while pending or running', async () => {
    stubFetch([
      worldPermissions(),
      {
        url: BAKES_URL,
        body: [
          bakeWire('running', { id: 'bake-a', name: 'nightly' }),
          bakeWire('pending', { id: 'bake-b' }),
          bakeWire('succeeded', { id: 'bake-c' }),
          bakeWire('failed', { id: 'bake-d' }),
        ],
      },
    ]);
    renderFlows(ROUTE);
    const running = (await screen.findByText('nightly')).closest('tr')!;
    expect(within(running).getByText('bake-a')).toBeTruthy();
    expect(within(running).getByText('orrery-engine')).toBeTruthy();
    expect(within(running).getByText('running')).toBeTruthy();
    expect(within(running).getByText('team:vision')).toBeTruthy();
    // An unnamed bake is named by its batch, its id once, under ID.
    const unnamed = screen.getByText('bake-b').closest('tr')!;
    expect(within(unnamed).getByRole('link', { name: 'Open bake bake-b' }).textContent).toBe(
      'diamond',
    );
    expect(within(unnamed).getAllByText('bake-b')).toHaveLength(1);
    expect(screen.getByLabelText('Kill bake nightly')).toBeTruthy();
    expect(screen.getByLabelText('Kill bake bake-b')).toBeTruthy();
    expect(screen.queryByLabelText('Kill bake bake-c')).toBeNull();
    expect(screen.queryByLabelText('Kill bake bake-d')).toBeNull();
    // A finished failed bake restarts from its failed tasks instead.
    expect(screen.getByLabelText('Restart bake bake-d from its failed tasks')).toBeTruthy();
    expect(screen.queryByLabelText('Restart bake bake-c from its failed tasks')).toBeNull();
  });

  it('kills a bake by replacing its last attempt with the result cancelled', async () => {
    const bake = bakeWire('running');
    const { calls } = stubFetch([
      worldPermissions(),
      { url: BAKES_URL, body: [bake] },
      {
        method: 'PUT',
        url: '/api/v1/flow/attempts/replace',
        body: { ...bake.last_attempt, result: 'cancelled' },
      },
    ]);
    renderFlows(ROUTE);
    fireEvent.click(await screen.findByLabelText(`Kill bake ${BAKE_ID}`));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Kill' }));
    expect(await screen.findByText('Bake killed')).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({
      bake_id: BAKE_ID,
      number: 1,
      result: 'cancelled',
      configs_meta: bake.last_attempt!.configs_meta,
      executor_id: 'orrery-engine',
    });
  });

  it('shows the server’s message when a restart is refused', async () => {
    stubFetch([
      worldPermissions(),
      { url: BAKES_URL, body: [bakeWire('failed')] },
      {
        method: 'POST',
        url: `/api/v1/flow/bakes/${BAKE_ID}/restart`,
        status: 409,
        body: { error: 'conflict', message: 'The bake is still running' },
      },
    ]);
    renderFlows(ROUTE);
    fireEvent.click(await screen.findByLabelText(`Restart bake ${BAKE_ID} from its failed tasks`));
    expect(await screen.findByText('The bake is still running')).toBeTruthy();
  });

  it('keeps Kill from a project reader, with the reason', async () => {
    stubFetch([worldPermissions(), { url: BAKES_URL, body: [bakeWire('running')] }]);
    renderFlows(ROUTE, 'nlp');
    await waitFor(() =>
      expect(screen.getByLabelText(`Kill bake ${BAKE_ID}`)).toHaveProperty('disabled', true),
    );
  });
});
