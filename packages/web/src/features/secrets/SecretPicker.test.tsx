import { fireEvent, screen, within } from '@testing-library/react';
import { Secret } from '@orrery/contract';
import { describe, expect, it, vi } from 'vitest';
import { world } from '../../test/fixtures';
import { stubFetch } from '../../test/fetch';
import { worldPermissions } from '../../test/world-permissions';
import { renderSignedIn } from '../../test/render';
import { AddEnvSecretModal, ChooseSecretPathModal } from './index';

const SCOPE = { clusterName: 'default', orgName: 'acme', projectName: 'vision' };
const LIST = '/api/v1/secrets?cluster_name=default&org_name=acme&project_name=vision';
const secret = (key: string) =>
  Secret.parse({ key, org_name: 'acme', project_name: 'vision', owner: 'alice' });
const render = (ui: React.ReactNode, project = 'vision') => {
  const { user, sessionConfig } = world();
  return renderSignedIn(ui, {
    user,
    sessionConfig,
    route: `/apps?org=acme&cluster=default&project=${project}`,
  });
};
const dialog = () => within(screen.getByRole('dialog'));

describe('Secret picker and its modals', () => {
  it('forces creation when the project has no secret, then adds the created one', async () => {
    stubFetch([
      worldPermissions(),
      { url: LIST, body: [] },
      { method: 'POST', url: '/api/v1/secrets', status: 201, body: secret('NEWTOKEN') },
    ]);
    const onAdd = vi.fn();
    render(<AddEnvSecretModal scope={SCOPE} opened onClose={() => {}} onAdd={onAdd} />);
    expect(screen.getByText('Add Environment Secret')).toBeTruthy();
    const key = await dialog().findByLabelText(/^Key/);
    expect(dialog().queryByText('Choose existing')).toBeNull();
    const add = dialog().getByRole('button', { name: 'Add secret' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);

    fireEvent.change(dialog().getByLabelText(/Environment variable name/), {
      target: { value: 'API_TOKEN' },
    });
    fireEvent.change(key, { target: { value: 'NEW TOKEN' } });
    fireEvent.change(dialog().getByLabelText(/^Value/), { target: { value: 'v' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Create secret' }));
    expect(await screen.findByText('The secret is created')).toBeTruthy();
    await vi.waitFor(() => expect(add.disabled).toBe(false));
    fireEvent.click(add);
    expect(onAdd).toHaveBeenCalledWith({
      name: 'API_TOKEN',
      key: 'NEWTOKEN',
      path: 'secret:NEWTOKEN',
      uri: 'secret://default/acme/vision/NEWTOKEN',
    });
  });

  it('starts from the given key and offers both ways when secrets exist', async () => {
    stubFetch([worldPermissions(), { url: LIST, body: [secret('A')] }]);
    render(
      <ChooseSecretPathModal
        scope={SCOPE}
        opened
        onClose={() => {}}
        onApply={() => {}}
        initialKey="A"
      />,
    );
    expect(await screen.findByText('Choose a Secret Path')).toBeTruthy();
    expect(await dialog().findByText('Choose existing')).toBeTruthy();
    const apply = dialog().getByRole('button', { name: 'Apply' }) as HTMLButtonElement;
    expect(apply.disabled).toBe(false);
  });

  it('returns secret:KEY and the URI of the chosen secret', async () => {
    stubFetch([worldPermissions(), { url: LIST, body: [secret('A'), secret('B')] }]);
    const onApply = vi.fn();
    render(<ChooseSecretPathModal scope={SCOPE} opened onClose={() => {}} onApply={onApply} />);
    const apply = (await dialog().findByRole('button', { name: 'Apply' })) as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    fireEvent.click(await dialog().findByRole('combobox', { name: /^Secret/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'B' }));
    await vi.waitFor(() => expect(apply.disabled).toBe(false));
    fireEvent.click(apply);
    expect(onApply).toHaveBeenCalledWith({
      key: 'B',
      path: 'secret:B',
      uri: 'secret://default/acme/vision/B',
    });
  });

  it('keeps Add secret disabled until a secret is chosen and a name typed', async () => {
    stubFetch([worldPermissions(), { url: LIST, body: [secret('A')] }]);
    const onAdd = vi.fn();
    render(<AddEnvSecretModal scope={SCOPE} opened onClose={() => {}} onAdd={onAdd} />);
    const add = dialog().getByRole('button', { name: 'Add secret' }) as HTMLButtonElement;
    fireEvent.click(await dialog().findByRole('combobox', { name: /^Secret/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'A' }));
    expect(add.disabled).toBe(true);
    fireEvent.change(dialog().getByLabelText(/Environment variable name/), {
      target: { value: 'TOKEN' },
    });
    expect(add.disabled).toBe(false);
    fireEvent.click(add);
    expect(onAdd).toHaveBeenCalledWith(expect.objectContaining({ name: 'TOKEN', key: 'A' }));
  });

  it('offers only existing secrets to a reader', async () => {
    stubFetch([worldPermissions(), { url: LIST.replace('vision', 'nlp'), body: [] }]);
    render(
      <ChooseSecretPathModal
        scope={{ ...SCOPE, projectName: 'nlp' }}
        opened
        onClose={() => {}}
        onApply={() => {}}
      />,
      'nlp',
    );
    expect(
      await screen.findByText('No secrets found. Ask a project manager to create one.'),
    ).toBeTruthy();
    expect(screen.queryByLabelText(/^Key/)).toBeNull();
  });
});
