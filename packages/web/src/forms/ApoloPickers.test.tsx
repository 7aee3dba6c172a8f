import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { entry, LIST as FILES, listing } from '../features/files/test-fixtures';
import { DETAILS, details, LIST as IMAGES, list } from '../features/images/testdata';
import { stubFetch } from '../test/fetch';
import { world } from '../test/fixtures';
import { JUPYTER_SCHEMA, LLM_INFERENCE_SCHEMA } from './testdata/apolo-schemas';
import { PLACE, renderForm } from './testdata/render-form';

type Nested = Record<string, Record<string, unknown>>;
const SECRETS = '/api/v1/secrets?cluster_name=default&org_name=acme&project_name=vision';
const ROUTE = '/apps?org=acme&cluster=default&project=vision';
const inProject = () => {
  const { user, sessionConfig } = world();
  return { render: { user, sessionConfig, withContext: true, route: ROUTE } };
};

describe("the console's pickers inside Apolo's classes", () => {
  it('ApoloFilesPath: Choose a Files Path fills storage:…', async () => {
    stubFetch([
      { url: FILES(), body: listing(entry('code', 'DIRECTORY')) },
      { url: FILES('code'), body: listing() },
    ]);
    const f = renderForm(JUPYTER_SCHEMA, { place: PLACE }, inProject());
    fireEvent.click(screen.getByRole('checkbox', { name: 'Override Default Storage Mount' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Choose Platform Storage Path' }));
    const modal = await screen.findByRole('dialog', { name: 'Choose a Files Path' });
    fireEvent.click(await within(modal).findByRole('button', { name: 'Folder code' }));
    fireEvent.click(await within(modal).findByRole('button', { name: 'Select' }));
    const mount = (f.values().jupyter_specific as Nested).override_code_storage_mount;
    expect(mount.storage_uri).toEqual({ path: 'storage:code' });
  });

  it('ContainerImage: Choose Image then Choose Image Tag fill repository and tag', async () => {
    stubFetch([
      { url: IMAGES, body: list() },
      { url: DETAILS, body: details },
    ]);
    const f = renderForm(LLM_INFERENCE_SCHEMA, { place: PLACE }, inProject());
    fireEvent.click(screen.getByRole('button', { name: 'Advanced' }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Docker Image' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Choose image' }));
    fireEvent.click(await screen.findByText('app'));
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    expect(await screen.findByText('Choose Image Tag')).toBeTruthy();
    fireEvent.doubleClick(await screen.findByText('v2'));
    expect(f.values().docker_image_config).toEqual({
      repository: 'orrery.test/acme/vision/app',
      tag: 'v2',
    });
  });

  it('ApoloSecret: Choose a Secret Path fills the key', async () => {
    stubFetch([
      {
        url: SECRETS,
        body: [{ key: 'hf', owner: 'alice', org_name: 'acme', project_name: 'vision' }],
      },
    ]);
    const f = renderForm(LLM_INFERENCE_SCHEMA, { place: PLACE }, inProject());
    fireEvent.click(screen.getByRole('checkbox', { name: 'Hugging Face Token' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Choose Secret' }));
    const modal = await screen.findByRole('dialog', { name: 'Choose a Secret Path' });
    fireEvent.click(await within(modal).findByRole('combobox', { name: 'Secret' }));
    fireEvent.click(await screen.findByRole('option', { name: 'hf' }));
    fireEvent.click(within(modal).getByRole('button', { name: 'Apply' }));
    expect((f.values().hugging_face_model as Nested).hf_token).toEqual({ key: 'hf' });
  });

  it('a required integration group starts unset, says Required there, and Cancel returns', async () => {
    const f = renderForm({
      type: 'object',
      properties: {
        apis: {
          type: 'object',
          'x-title': 'Model APIs',
          required: ['llm'],
          properties: {
            llm: {
              type: 'object',
              'x-title': 'Chat API',
              'x-meta-type': 'integration',
              'x-type': 'OpenAICompatChatAPI',
              required: ['host'],
              properties: { host: { type: 'string', 'x-title': 'Host' } },
            },
          },
        },
      },
    });
    expect(screen.getByRole('heading', { name: 'Model APIs' }).textContent).toBe('Model APIs *');
    // Without a project there is nothing to choose from.
    expect(screen.getByRole('button', { name: 'Choose app' })).toHaveProperty('disabled', true);
    expect(screen.queryByLabelText(/^Host/)).toBeNull();
    f.check();
    expect(await screen.findByText('Required')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Enter value' }));
    fireEvent.change(screen.getByLabelText(/^Host/), { target: { value: 'llm.internal' } });
    expect(f.values().apis).toEqual({ llm: { host: 'llm.internal' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(f.values().apis).toEqual({ llm: { host: '' } });
    expect(screen.queryByLabelText(/^Host/)).toBeNull();
  });
});
