import type { ReactNode } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { Providers } from '../app/Providers';
import { DataTable, type Column } from './DataTable';

interface Disk {
  id: string;
  name: string;
  owner: string;
}
const DISKS: Disk[] = [
  { id: 'd1', name: 'data', owner: 'alice' },
  { id: 'd2', name: 'cache', owner: 'bob' },
];
const COLUMNS: Column<Disk>[] = [
  { header: 'Name', cell: (d) => d.name },
  { header: 'Owner', cell: (d) => d.owner },
];
const done = { isPending: false, isError: false, error: null as unknown };

const show = (ui: ReactNode) => render(<Providers test>{ui}</Providers>);

describe('DataTable', () => {
  it('shows a header per column and a row per item, in order, and opens the clicked row', async () => {
    const onRowClick = vi.fn();
    show(
      <DataTable
        rows={DISKS}
        rowKey={(d) => d.id}
        onRowClick={onRowClick}
        columns={[...COLUMNS, false, { label: 'Actions', cell: (_, i) => `#${i}` }]}
      />,
    );
    const [head, ...rows] = screen.getAllByRole('row');
    expect(
      within(head!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Owner', '']);
    expect(screen.getByRole('columnheader', { name: 'Actions' })).toBeTruthy();
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['data', 'alice', '#0'],
      ['cache', 'bob', '#1'],
    ]);
    await userEvent.click(screen.getByText('cache'));
    expect(onRowClick).toHaveBeenCalledWith(DISKS[1]);
  });

  it('shows the loader, then the server’s message, then the empty state', () => {
    const status = (query: typeof done) => ({ query, loading: 'Disks', failed: 'Load failed' });
    const { rerender } = show(
      <DataTable
        status={status({ ...done, isPending: true })}
        rows={undefined}
        rowKey={(d: Disk) => d.id}
        columns={COLUMNS}
        empty="No disks"
      />,
    );
    expect(screen.getByLabelText('Disks')).toBeTruthy();
    const failed = (error: unknown) => (
      <Providers test>
        <DataTable
          status={status({ ...done, isError: true, error })}
          rows={undefined}
          rowKey={(d: Disk) => d.id}
          columns={COLUMNS}
          empty="No disks"
        />
      </Providers>
    );
    rerender(failed(new ApiError(403, { message: 'You may not list disks' })));
    expect(screen.getByRole('alert').textContent).toContain('You may not list disks');
    rerender(failed(new Error('network')));
    expect(screen.getByRole('alert').textContent).toContain('Load failed');
    rerender(
      <Providers test>
        <DataTable
          status={status(done)}
          rows={[]}
          rowKey={(d: Disk) => d.id}
          columns={COLUMNS}
          empty="No disks"
        />
      </Providers>,
    );
    expect(screen.getByText('No disks')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
