import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetch';
import { renderSignedIn } from '../../test/render';
import { ChooseFilesPathModal } from './index';
import { entry, LIST, listing, place, ROUTE, signedIn } from './test-fixtures';

function renderModal() {
  stubFetch([
    { url: LIST(), body: listing(entry('data', 'DIRECTORY'), entry('readme.md')) },
    { url: LIST('data'), body: listing(entry('train.csv')) },
  ]);
  const onChoose = vi.fn();
  const onClose = vi.fn();
  renderSignedIn(
    <ChooseFilesPathModal place={place} opened onClose={onClose} onChoose={onChoose} />,
    { ...signedIn(), route: ROUTE },
  );
  return { onChoose, onClose, dialog: screen.getByRole('dialog', { name: 'Choose a Files Path' }) };
}

describe('Choose a Files Path', () => {
  it('enters a folder on a double click and returns the selected file', async () => {
    const { dialog, onChoose, onClose } = renderModal();
    const data = await within(dialog).findByRole('button', { name: 'Folder data' });
    fireEvent.click(data);
    fireEvent.click(data);
    const train = await within(dialog).findByRole('button', { name: 'File train.csv' });
    fireEvent.click(train);
    await vi.waitFor(() => expect(train.getAttribute('aria-pressed')).toBe('true'));
    expect(within(dialog).getByText('storage:data/train.csv')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Select' }));
    expect(onChoose).toHaveBeenCalledWith({
      segments: ['data', 'train.csv'],
      path: 'storage:data/train.csv',
      uri: 'storage://default/acme/vision/data/train.csv',
    });
    expect(onClose).toHaveBeenCalled();
  });

  it('selects a folder with one click without entering it', async () => {
    const { dialog, onChoose } = renderModal();
    const data = await within(dialog).findByRole('button', { name: 'Folder data' });
    fireEvent.click(data);
    await vi.waitFor(() => expect(data.getAttribute('aria-pressed')).toBe('true'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Select' }));
    expect(onChoose.mock.calls[0][0]).toMatchObject({
      path: 'storage:data',
      uri: 'storage://default/acme/vision/data',
    });
  });

  it('returns the open folder when nothing is selected', async () => {
    const { dialog, onChoose } = renderModal();
    await within(dialog).findByRole('button', { name: 'Folder data' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Select this folder' }));
    expect(onChoose.mock.calls[0][0]).toEqual({
      segments: [],
      path: 'storage:',
      uri: 'storage://default/acme/vision',
    });
  });
});
