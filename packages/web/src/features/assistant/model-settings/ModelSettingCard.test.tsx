import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../../test/fetch';
import { renderSignedIn } from '../../../test/render';
import { ModelSettingCard } from './ModelSettingCard';

const SETTING = '/api/v1/copilot/orgs/acme/model';
const APP = '2b8f6a1e-4c1d-4e7a-9f00-0000000000aa';
const CHOICES = {
  url: `${SETTING}/choices`,
  body: {
    items: [
      {
        id: APP,
        display_name: 'chat',
        cluster_name: 'default',
        project_name: 'vision',
        state: 'healthy',
      },
    ],
  },
};

const choose = async (label: string) => {
  const select = await screen.findByRole('combobox', { name: 'Model' });
  await vi.waitFor(() => expect(select.hasAttribute('disabled')).toBe(false));
  fireEvent.click(select);
  fireEvent.click(await screen.findByRole('option', { name: label }));
};

describe('the assistant model card', () => {
  it("lets a manager choose one of the organization's llm-inference apps", async () => {
    const { calls } = stubFetch([
      { url: SETTING, body: { source: 'endpoint', app_instance_id: null, can_manage: true } },
      CHOICES,
      {
        method: 'PUT',
        url: SETTING,
        body: { source: 'app', app_instance_id: APP, can_manage: true },
      },
    ]);
    renderSignedIn(<ModelSettingCard org="acme" />);
    expect(await screen.findByText(/The server's configured model composes/)).toBeTruthy();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save.hasAttribute('disabled')).toBe(true);
    await choose('chat (vision, healthy)');
    fireEvent.click(save);
    expect(await screen.findByText('The assistant model is saved')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ app_instance_id: APP });
  });

  it("shows the server's reason when it refuses the choice", async () => {
    const reason = `No app instance ${APP} in organization acme that you can read`;
    stubFetch([
      { url: SETTING, body: { source: 'embedded', app_instance_id: null, can_manage: true } },
      CHOICES,
      { method: 'PUT', url: SETTING, status: 400, body: { error: 'validation', message: reason } },
    ]);
    renderSignedIn(<ModelSettingCard org="acme" />);
    expect(await screen.findByText(/The built-in assistant answers/)).toBeTruthy();
    await choose('chat (vision, healthy)');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(reason)).toBeTruthy();
  });

  it('says where to get an app when the organization has none', async () => {
    stubFetch([
      { url: SETTING, body: { source: 'embedded', app_instance_id: null, can_manage: true } },
      { url: `${SETTING}/choices`, body: { items: [] } },
    ]);
    renderSignedIn(<ModelSettingCard org="acme" />);
    expect(
      await screen.findByText(/No llm-inference app in the projects you can read/),
    ).toBeTruthy();
  });

  it('shows nothing to someone who cannot change it', async () => {
    const { calls } = stubFetch([
      { url: SETTING, body: { source: 'app', app_instance_id: null, can_manage: false } },
    ]);
    renderSignedIn(<ModelSettingCard org="acme" />);
    await vi.waitFor(() =>
      expect(screen.queryByLabelText('Loading the assistant model')).toBeNull(),
    );
    expect(calls).toHaveLength(1);
    expect(screen.queryByText('Assistant model')).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Model' })).toBeNull();
    expect(calls.some((c) => c.url.endsWith('/choices'))).toBe(false);
  });
});
