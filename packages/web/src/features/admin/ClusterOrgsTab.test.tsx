import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch';
import { world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import { ClusterOrgsTab } from './ClusterOrgsTab';

const ORGS = '/apis/admin/v1/clusters/default/orgs';
const NONE = { cpu: null, memory: null, nvidia_gpu: null, amd_gpu: null, intel_gpu: null };
const acme = {
  org_name: 'acme',
  balance: { credits: null, spent_credits: '0' },
  quota: {
    total_running_jobs: 5,
    ...NONE,
    cpu: 8,
    memory: 32e9,
    nvidia_gpu: 4,
    borrowing_limit: { ...NONE, nvidia_gpu: 2 },
  },
  default_credits: null,
  default_quota: { total_running_jobs: null },
  default_role: 'user',
  storage_size: null,
  maintenance: false,
};

describe('the cluster’s organizations', () => {
  it('shows and edits each organization’s resource quotas beside its jobs quota', async () => {
    const { user, sessionConfig } = world({ system_role: 'admin' });
    const { calls } = stubFetch([
      { url: ORGS, body: [acme] },
      { url: '/apis/admin/v1/orgs', body: [] },
      { url: '/apis/admin/v1/clusters/default/storage_volumes', body: [] },
      { url: '/apis/admin/v1/clusters/default/disk_price', body: { credits_per_day_per_gb: '0' } },
      { method: 'PUT', url: `${ORGS}/acme`, body: acme },
    ]);
    renderSignedIn(<ClusterOrgsTab cluster="default" />, { user, sessionConfig });
    const row = (await screen.findByRole('cell', { name: 'acme' })).closest('tr')!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['acme', '5', '8', '32 GB', '4 (+2)', '∞', '∞', '∞', '']);
    fireEvent.click(within(row).getByRole('button', { name: 'Edit quota of acme' }));
    const dialog = await screen.findByRole('dialog');
    const field = (name: string) => within(dialog).getByLabelText(name);
    expect((field('Memory, GB: Quota') as HTMLInputElement).value).toBe('32');
    fireEvent.change(field('Memory, GB: Quota'), { target: { value: '1.5' } });
    fireEvent.change(field('NVIDIA GPUs: Borrowing limit'), { target: { value: '0.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('NVIDIA GPUs borrowing limit must be a whole number'),
    ).toBeTruthy();
    fireEvent.change(field('NVIDIA GPUs: Borrowing limit'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Quota of acme is updated')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      quota: {
        total_running_jobs: '5',
        ...NONE,
        cpu: 8,
        memory: 1.5e9,
        nvidia_gpu: 4,
        borrowing_limit: NONE,
      },
    });
  });
});
