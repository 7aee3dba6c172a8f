import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch';
import { world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import { NodesTab } from './NodesTab';

const POOLS = '/apis/admin/v1/clusters/default/node_pools';
const usage = (cpu: number, memory: number) => ({
  cpu,
  memory,
  nvidia_gpu: 0,
  amd_gpu: 0,
  intel_gpu: 0,
});
const pool = {
  name: 'workers',
  min_size: 1,
  max_size: 3,
  idle_size: 0,
  cpu_min_watts: 10,
  cpu_max_watts: 100,
  is_preemptible: false,
  cpu: 8,
  memory: 32e9,
  gpus: [],
  capacity: usage(24, 96e9),
  used: usage(2, 4e9),
};

describe('node pools', () => {
  const open = async (patch: { status: number; body: unknown }) => {
    const { user, sessionConfig } = world({ system_role: 'admin' });
    const { calls } = stubFetch([
      { url: POOLS, body: [pool] },
      { method: 'PATCH', url: `${POOLS}/workers`, ...patch },
    ]);
    renderSignedIn(<NodesTab cluster="default" />, { user, sessionConfig });
    const row = (await screen.findByText('workers')).closest('tr')!;
    expect(within(row).getByText('2 / 24')).toBeTruthy();
    expect(within(row).getByText('4 GB / 96 GB')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Edit node pool workers' }));
    const dialog = await screen.findByRole('dialog');
    return { calls, dialog };
  };

  it('keeps min and max read-only, explains idle nodes, and sends the numbers as typed', async () => {
    const { calls, dialog } = await open({ status: 200, body: {} });
    expect(within(dialog).getByLabelText('Minimum nodes').hasAttribute('readonly')).toBe(true);
    expect(within(dialog).getByLabelText('Maximum nodes').hasAttribute('readonly')).toBe(true);
    expect(
      within(dialog).getByText('Idle nodes can be up to 2 (difference between max and min)'),
    ).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Idle nodes'), { target: { value: '2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Provider node pool workers is updated')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      idle_size: '2',
      cpu_min_watts: '10',
      cpu_max_watts: '100',
    });
  });

  it('shows the server’s rule on its field', async () => {
    const message = 'Idle nodes cannot be more than 2';
    const { dialog } = await open({
      status: 400,
      body: { error: 'validation', message, errors: [{ path: 'idle_size', message }] },
    });
    fireEvent.change(within(dialog).getByLabelText('Idle nodes'), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(message)).toBeTruthy();
  });

  it('lists the nodes a Slurm partition reports, a down node with its reason', async () => {
    const { user, sessionConfig } = world({ system_role: 'admin' });
    const nodes = [
      { name: 'n1', state: 'down', reason: 'fan failure' },
      { name: 'n2', state: 'mix', reason: null },
    ];
    stubFetch([{ url: POOLS, body: [{ ...pool, nodes }] }]);
    renderSignedIn(<NodesTab cluster="default" />, { user, sessionConfig });
    expect(await screen.findByText('n1: down (fan failure)')).toBeTruthy();
    expect(screen.getByText('n2: mix')).toBeTruthy();
  });
});
