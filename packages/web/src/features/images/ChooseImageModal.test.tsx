import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetch';
import { world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import { ChooseImageFlow } from './ChooseImageModal';
import { DETAILS, details, LIST, list } from './testdata';

const place = { clusterName: 'default', orgName: 'acme', projectName: 'vision' };

describe('Choose Image, then Choose Image Tag', () => {
  it('chooses an image, then one of its tags', async () => {
    stubFetch([
      { url: LIST, body: list() },
      { url: DETAILS, body: details },
    ]);
    const onChoose = vi.fn();
    const onClose = vi.fn();
    const { user, sessionConfig } = world();
    renderSignedIn(<ChooseImageFlow place={place} opened onClose={onClose} onChoose={onChoose} />, {
      user,
      sessionConfig,
    });
    expect(await screen.findByText('Choose Image')).toBeTruthy();
    const app = await screen.findByText('app');
    expect(screen.getByRole('button', { name: 'Select' })).toHaveProperty('disabled', true);
    fireEvent.click(app);
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    expect(await screen.findByText('Choose Image Tag')).toBeTruthy();
    // The tag step confirms with "Apply", not the image step's "Select".
    const tag = await screen.findByText('v1');
    expect(screen.queryByRole('button', { name: 'Select' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Apply' })).toHaveProperty('disabled', true);
    fireEvent.click(tag);
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onChoose).toHaveBeenCalledWith({
      name: 'app',
      tag: 'v1',
      uri: 'image://default/acme/vision/app:v1',
      reference: 'orrery.test/acme/vision/app:v1',
    });
    expect(onClose).toHaveBeenCalled();
  });

  it('says "No images found" when the project has none', async () => {
    stubFetch([{ url: LIST, body: list([]) }]);
    const { user, sessionConfig } = world();
    renderSignedIn(
      <ChooseImageFlow place={place} opened onClose={() => {}} onChoose={() => {}} />,
      { user, sessionConfig },
    );
    expect(await screen.findByText('No images found')).toBeTruthy();
  });
});
