import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Disk as DiskSchema } from '@orrery/contract';
import { stubFetch } from '../../test/fetch';
import { world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import { ChooseDiskModal } from './ChooseDiskModal';

const LIST = '/api/v1/disk?cluster_name=default&org_name=acme&project_name=vision';
const disk = (id: string, name: string | null) =>
  DiskSchema.parse({
    id,
    storage: 10 ** 9,
    used_bytes: 0,
    status: 'Ready',
    owner: 'alice',
    name,
    org_name: 'acme',
    project_name: 'vision',
    cluster_name: 'default',
    uri: `disk://default/acme/vision/${id}`,
    created_at: '2026-01-02T03:04:05.000Z',
    last_usage: null,
    life_span: null,
  });

describe('Choose a Disks Path', () => {
  it('returns disk:NAME for a named disk and the URI for an unnamed one', async () => {
    stubFetch([{ url: LIST, body: [disk('disk-1', 'data'), disk('disk-2', null)] }]);
    const onChoose = vi.fn();
    const { user, sessionConfig } = world();
    renderSignedIn(
      <ChooseDiskModal
        opened
        onClose={() => {}}
        onChoose={onChoose}
        place={{ clusterName: 'default', orgName: 'acme', projectName: 'vision' }}
      />,
      { user, sessionConfig },
    );
    expect(screen.getByRole('button', { name: 'Select' })).toHaveProperty('disabled', true);
    fireEvent.click(await screen.findByText('data'));
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    expect(onChoose).toHaveBeenLastCalledWith(
      'disk:data',
      expect.objectContaining({ id: 'disk-1' }),
    );
    fireEvent.doubleClick(screen.getByText('disk-2'));
    expect(onChoose).toHaveBeenLastCalledWith(
      'disk://default/acme/vision/disk-2',
      expect.anything(),
    );
  });
});
