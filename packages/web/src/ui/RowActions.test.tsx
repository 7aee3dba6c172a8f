import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ALLOWED } from '../api/permissions';
import { Providers } from '../app/Providers';
import { DeleteAction, EditAction } from './RowActions';
import { WhyNot } from './WhyNot';

describe('row actions', () => {
  it('show their name on hover and act on click', async () => {
    const onDelete = vi.fn();
    render(
      <Providers test>
        <WhyNot can={ALLOWED} tooltip="Delete">
          <DeleteAction label="Delete disk data" onClick={onDelete} />
        </WhyNot>
        <WhyNot can={ALLOWED} tooltip="Edit alice">
          <EditAction label="Edit alice" onClick={() => {}} />
        </WhyNot>
      </Providers>,
    );
    await userEvent.hover(screen.getByRole('button', { name: 'Delete disk data' }));
    expect((await screen.findByRole('tooltip')).textContent).toBe('Delete');
    await userEvent.click(screen.getByRole('button', { name: 'Delete disk data' }));
    expect(onDelete).toHaveBeenCalledTimes(1);
  });

  it('are disabled, with the reason on hover, when the permission engine refuses', async () => {
    const onDelete = vi.fn();
    render(
      <Providers test>
        <WhyNot can={{ allowed: false, reason: 'Needs manage on the disk', pending: false }}>
          <DeleteAction label="Delete disk data" onClick={onDelete} />
        </WhyNot>
      </Providers>,
    );
    const button = screen.getByRole('button', { name: 'Delete disk data' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await userEvent.hover(button.parentElement!);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Needs manage on the disk');
  });
});
