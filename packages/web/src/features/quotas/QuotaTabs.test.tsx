import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { OrgQuotaView, ProjectQuotaView } from '@orrery/contract';
import { stubFetch } from '../../test/fetch';
import { permissionsOf } from '../../test/permissions';
import { renderSignedIn } from '../../test/render';
import { OrgQuotaTab, ProjectQuotaTab } from './QuotaTabs';

const GB = 1e9;
const NONE = { cpu: null, memory: null, nvidia_gpu: null, amd_gpu: null, intel_gpu: null };
const used = (o: Partial<ProjectQuotaView['used']> = {}) => ({
  cpu: 0,
  memory: 0,
  nvidia_gpu: 0,
  amd_gpu: 0,
  intel_gpu: 0,
  total_running_jobs: 0,
  ...o,
});
const vision: ProjectQuotaView = {
  cluster_name: 'default',
  org_name: 'acme',
  project_name: 'vision',
  ...NONE,
  nvidia_gpu: 2,
  borrowing_limit: { ...NONE, nvidia_gpu: 1 },
  used: used({ cpu: 1.5, memory: 2 * GB, nvidia_gpu: 2, total_running_jobs: 1 }),
};
const org: OrgQuotaView = {
  cluster_name: 'default',
  org_name: 'acme',
  total_running_jobs: 10,
  ...NONE,
  cpu: 16,
  memory: 64 * GB,
  nvidia_gpu: 4,
  borrowing_limit: { ...NONE, nvidia_gpu: 2 },
  used: used({ cpu: 1.5, memory: 2 * GB, nvidia_gpu: 2, total_running_jobs: 1 }),
  projects: [vision],
};
const ORG_URL = '/apis/admin/v1/clusters/default/orgs/acme/quota';
const VISION_URL = '/apis/admin/v1/clusters/default/orgs/acme/projects/vision/quota';
const place = { clusterName: 'default', orgName: 'acme', projectName: 'vision' };

const asOrgManager = permissionsOf([
  { prefix: 'org://acme', have: 'manage' },
  { prefix: 'cluster://default', have: 'read' },
]);

describe('quota editors', () => {
  it('lets an organization manager split the quota among projects, not change its own', async () => {
    const { calls } = stubFetch([
      asOrgManager,
      { url: ORG_URL, body: org },
      { method: 'PUT', url: VISION_URL, reply: () => vision },
    ]);
    renderSignedIn(<OrgQuotaTab cluster="default" org="acme" />);
    const row = (await screen.findByRole('cell', { name: 'vision' })).closest('tr')!;
    // Used of quota (+ borrowing limit) for each resource.
    expect(within(row).getByText('2 / 2 (+1)')).toBeTruthy();
    expect(within(row).getByText('2 GB / Unlimited')).toBeTruthy();
    expect(screen.getByRole('cell', { name: '64 GB' })).toBeTruthy();
    // The organization's own quota is the cluster's managers' only.
    expect(screen.queryByRole('button', { name: 'Edit quota' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Edit quota of vision' }));
    const dialog = await screen.findByRole('dialog');
    const field = (name: string) => within(dialog).getByLabelText(name);
    expect((field('NVIDIA GPUs: Quota') as HTMLInputElement).value).toBe('2');
    fireEvent.change(field('CPU cores: Quota'), { target: { value: '-1' } });
    fireEvent.change(field('AMD GPUs: Borrowing limit'), { target: { value: '1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('CPU must be a positive number')).toBeTruthy();
    expect(
      within(dialog).getByText(
        'A borrowing limit of AMD GPUs needs a quota of AMD GPUs: without one, its use is not limited',
      ),
    ).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.change(field('CPU cores: Quota'), { target: { value: '4.5' } });
    // A corrected field no longer shows the last submit's error; the others still do.
    expect(within(dialog).queryByText('CPU must be a positive number')).toBeNull();
    expect(within(dialog).getByText(/^A borrowing limit of AMD GPUs/)).toBeTruthy();
    fireEvent.change(field('AMD GPUs: Borrowing limit'), { target: { value: '' } });
    fireEvent.change(field('Memory, GB: Quota'), { target: { value: '16' } });
    fireEvent.change(field('NVIDIA GPUs: Quota'), { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Quota of vision project is updated')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      ...NONE,
      cpu: 4.5,
      memory: 16 * GB,
      nvidia_gpu: 3,
      borrowing_limit: { ...NONE, nvidia_gpu: 1 },
    });
  });

  it('shows the server’s refusal on the field and in a notification', async () => {
    const message =
      "NVIDIA GPUs: the nominal quotas of the projects of acme add up to 5 NVIDIA GPUs, more than the organization's 4 NVIDIA GPUs";
    stubFetch([
      asOrgManager,
      { url: ORG_URL, body: org },
      {
        method: 'PUT',
        url: VISION_URL,
        status: 400,
        body: { error: 'validation', message, errors: [{ path: 'nvidia_gpu', message }] },
      },
    ]);
    renderSignedIn(<OrgQuotaTab cluster="default" org="acme" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit quota of vision' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('NVIDIA GPUs: Quota'), {
      target: { value: '5' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(2));
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('lets a cluster manager change the organization’s quota, every field sent', async () => {
    const { calls } = stubFetch([
      permissionsOf([{ prefix: 'cluster://default', have: 'manage' }]),
      { url: ORG_URL, body: org },
      { method: 'PATCH', url: ORG_URL, body: {} },
    ]);
    renderSignedIn(<OrgQuotaTab cluster="default" org="acme" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit quota' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/^Jobs quota/), { target: { value: '' } });
    fireEvent.change(within(dialog).getByLabelText('Memory, GB: Quota'), {
      target: { value: '' },
    });
    fireEvent.change(within(dialog).getByLabelText('Intel GPUs: Quota'), {
      target: { value: '2' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Quota of acme is updated')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      quota: {
        total_running_jobs: '',
        ...NONE,
        cpu: 16,
        nvidia_gpu: 4,
        intel_gpu: 2,
        borrowing_limit: { ...NONE, nvidia_gpu: 2 },
      },
    });
  });

  it('shows a project’s member its quota and use, with nothing to change', async () => {
    stubFetch([
      permissionsOf([
        { prefix: 'project://default/acme/vision', have: 'read' },
        { prefix: 'org://acme', have: 'read' },
        { prefix: 'cluster://default', have: 'read' },
      ]),
      { url: VISION_URL, body: vision },
    ]);
    renderSignedIn(<ProjectQuotaTab place={place} />);
    const gpus = (await screen.findByRole('cell', { name: 'NVIDIA GPUs' })).closest('tr')!;
    expect(
      within(gpus)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['NVIDIA GPUs', '2', '1', '2']);
    const cpu = screen.getByRole('cell', { name: 'CPU' }).closest('tr')!;
    expect(
      within(cpu)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['CPU', 'Unlimited', '—', '1.5']);
    expect(screen.queryByRole('button', { name: /Edit quota/ })).toBeNull();
  });
});
