import { fireEvent, screen, within } from '@testing-library/react';
import type { InputSchema } from '@orrery/contract';
import { describe, expect, it, vi } from 'vitest';
import type { Preset } from './environment';
import { envVariableErrors } from './env';
import { addEnvVariable, PLACE, renderForm, type } from './testdata/render-form';

const GB = 1e9;
const preset = (name: string, cpu: number, memory: number) =>
  ({ name, cpu, memory, creditsPerHour: '1' }) as Preset;

describe('schema-driven form', () => {
  it('shows "Required" on a required string and clears it when typed into', async () => {
    const f = renderForm({
      type: 'object',
      required: ['image'],
      properties: { image: { type: 'string', title: 'Image' } },
    });
    f.check();
    expect(await screen.findByText('Required')).toBeTruthy();
    type(/Image/, 'ubuntu');
    expect(screen.queryByText('Required')).toBeNull();
    expect(f.values().image).toBe('ubuntu');
  });

  it("numbers an array's items by the item's own title, a group of fields without an asterisk", () => {
    renderForm({
      type: 'object',
      properties: {
        users: {
          type: 'array',
          'x-title': 'Database users',
          items: {
            type: 'object',
            'x-title': 'Database user',
            required: ['name'],
            properties: {
              name: { type: 'string', 'x-title': 'User name' },
              dbs: { type: 'array', 'x-title': 'Databases', items: { type: 'string' } },
            },
          },
          default: [{ name: 'app', dbs: ['app'] }],
        },
      },
    } as InputSchema);
    // The group's own label, and an untitled string item by its array's title.
    expect(screen.getByText('Database user 1')).toBeTruthy();
    expect(screen.getByText('Database user 1').textContent).not.toContain('*');
    expect(screen.getByText('Databases 1')).toBeTruthy();
    expect(screen.queryByText(/Database users 1/)).toBeNull();
  });

  it('hides constants and sets them by itself', () => {
    const f = renderForm({ type: 'object', properties: { kind: { const: 'job', title: 'Kind' } } });
    expect(screen.queryByText('Kind')).toBeNull();
    expect(f.values().kind).toBe('job');
  });

  it('reads numbers with a decimal comma, two decimals, empty as undefined', () => {
    const f = renderForm({ type: 'object', properties: { cpu: { type: 'number', title: 'CPU' } } });
    type(/CPU/, '1,239');
    expect(f.values().cpu).toBe(1.23);
    expect((screen.getByLabelText(/CPU/) as HTMLInputElement).value).toBe('1,239');
    type(/CPU/, '');
    expect(f.values().cpu).toBeUndefined();
  });

  it('splits tags by comma, trimmed, without empties or duplicates', () => {
    const f = renderForm({
      type: 'object',
      properties: {
        tags: { type: 'array', title: 'Tags', items: { type: 'string' }, 'x-type': 'tags' },
      },
    });
    type(/Tags/, 'a, b,, a ,c');
    expect(f.values().tags).toEqual(['a', 'b', 'c']);
  });

  it('offers enum options only', async () => {
    const f = renderForm({
      type: 'object',
      properties: {
        policy: { type: 'string', title: 'Policy', enum: ['never', 'always'], default: 'never' },
      },
    });
    fireEvent.click(screen.getByRole('combobox', { name: 'Policy' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['never', 'always']);
    fireEvent.click(options[1]);
    expect(f.values().policy).toBe('always');
  });

  it('any-of checkbox: null until checked, then the option’s empty value', () => {
    const f = renderForm({
      type: 'object',
      properties: {
        timeout: {
          title: 'Timeout',
          anyOf: [{ type: 'null' }, { type: 'number', title: 'Seconds' }],
        },
      },
    });
    expect(f.values().timeout).toBeNull();
    expect(screen.queryByLabelText(/Seconds/)).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Timeout' }));
    type(/Seconds/, '30');
    expect(f.values().timeout).toBe(30);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Timeout' }));
    expect(f.values().timeout).toBeNull();
  });

  it('any-of collapsible: an object with defaults when on, opens by itself on an error', async () => {
    const f = renderForm({
      type: 'object',
      properties: {
        http: {
          title: 'HTTP',
          anyOf: [
            { type: 'null' },
            {
              type: 'object',
              required: ['port'],
              properties: {
                port: { type: 'integer', title: 'Port', default: 80 },
                requires_auth: { type: 'boolean', title: 'Auth', default: true },
              },
            },
          ],
        },
      },
    });
    fireEvent.click(screen.getByRole('checkbox', { name: 'HTTP' }));
    expect(f.values().http).toEqual({ port: 80, requires_auth: true });
    // Fold the section, then an error inside opens it again.
    fireEvent.click(screen.getByRole('button', { name: 'HTTP' }));
    expect(screen.getByRole('button', { name: 'HTTP' }).getAttribute('aria-expanded')).toBe(
      'false',
    );
    f.setErrors({ 'http.port': 'Bad port' });
    expect(await screen.findByText('Bad port')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'HTTP' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('any-of select: switching resets the value', async () => {
    const f = renderForm({
      type: 'object',
      properties: {
        source: {
          title: 'Source',
          anyOf: [
            { type: 'string', title: 'URL' },
            {
              type: 'object',
              title: 'Repository',
              properties: { kind: { const: 'repo' }, repo: { type: 'string', title: 'Repo' } },
            },
          ],
        },
      },
    });
    expect(f.values().source).toBe('');
    fireEvent.click(screen.getByRole('combobox', { name: 'Source' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Repository' }));
    expect(f.values().source).toEqual({ kind: 'repo', repo: '' });
    type(/Repo$/, 'x');
    fireEvent.click(screen.getByRole('combobox', { name: 'Source' }));
    fireEvent.click(await screen.findByRole('option', { name: 'URL' }));
    expect(f.values().source).toBe('');
  });

  it('arrays of numbers use numeric inputs', () => {
    const f = renderForm({
      type: 'object',
      properties: { ports: { type: 'array', title: 'Ports', items: { type: 'integer' } } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    type(/^Ports 1/, '8080');
    expect(f.values().ports).toEqual([8080]);
    expect(screen.getByLabelText(/^Ports 1/).getAttribute('inputmode')).toBe('numeric');
  });

  it('puts consecutive properties of the same x-group under one section title', () => {
    renderForm({
      type: 'object',
      properties: {
        a: { type: 'string', title: 'Alpha', 'x-group': 'First' },
        b: { type: 'string', title: 'Beta', 'x-group': 'First' },
        c: { type: 'string', title: 'Gamma', 'x-group': 'Second' },
      },
    });
    expect(screen.getAllByRole('heading').map((h) => h.textContent)).toEqual(['First', 'Second']);
  });

  it('marks required labels', () => {
    renderForm({
      type: 'object',
      required: ['a'],
      properties: { a: { type: 'string', title: 'Alpha' }, b: { type: 'string', title: 'Beta' } },
    });
    expect(screen.getByText('Alpha').parentElement?.textContent).toContain('*');
    expect(screen.getByText('Beta').parentElement?.textContent).not.toContain('*');
  });
});

describe('special inputs', () => {
  const env: InputSchema = {
    type: 'object',
    properties: {
      env: {
        type: 'array',
        title: 'Environment',
        'x-type': 'env',
        items: {
          type: 'object',
          required: ['name', 'value'],
          properties: { name: { type: 'string' }, value: { type: 'string' } },
        },
      },
    },
  };

  it('env editor: "The Environment Variable" adds a variable once name and value are given', async () => {
    const f = renderForm(env);
    fireEvent.click(screen.getByRole('button', { name: 'Add variable' }));
    const dialog = await screen.findByRole('dialog', { name: 'The Environment Variable' });
    const add = within(dialog).getByRole('button', { name: 'Add' });
    expect(add).toHaveProperty('disabled', true);
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: '  ' } });
    expect(within(dialog).getByText('Required')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'A' } });
    expect(add).toHaveProperty('disabled', true);
    fireEvent.change(within(dialog).getByLabelText(/^Value/), { target: { value: '1' } });
    expect(add).toHaveProperty('disabled', false);
    fireEvent.click(add);
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(f.values().env).toEqual([{ name: 'A', value: '1', type: 'variable' }]);
  });

  it('env editor: a variable is edited in the dialog or in the list, and removed', async () => {
    const f = renderForm(env);
    await addEnvVariable('A', '1');
    fireEvent.click(screen.getByRole('button', { name: 'Edit A' }));
    const dialog = await screen.findByRole('dialog', { name: 'The Environment Variable' });
    const value = within(dialog).getByLabelText(/^Value/) as HTMLInputElement;
    expect(value.value).toBe('1');
    fireEvent.change(value, { target: { value: '' } });
    expect(within(dialog).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
    fireEvent.change(value, { target: { value: '2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(f.values().env).toEqual([{ name: 'A', value: '2', type: 'variable' }]);
    type('Value 1', '3');
    expect(f.values().env).toEqual([{ name: 'A', value: '3', type: 'variable' }]);
    // Emptied in the list, the form's own rule catches it.
    type('Value 1', '');
    f.check();
    expect(await screen.findByText('Required')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove A' }));
    expect(f.values().env).toEqual([]);
  });

  it('env rules: name and value at least 1 character', () => {
    expect(envVariableErrors({ name: 'A', value: 'x' })).toEqual({});
    expect(envVariableErrors({ name: ' ', value: '' })).toEqual({
      name: 'Required',
      value: 'Required',
    });
  });

  it('env editor: a list marked Env with string values takes variables only', async () => {
    const f = renderForm(
      {
        type: 'object',
        properties: {
          env: {
            type: 'array',
            'x-type': 'Env',
            'x-title': 'Environment',
            items: {
              type: 'object',
              required: ['name', 'value'],
              properties: { name: { type: 'string' }, value: { type: 'string' } },
            },
          },
        },
      } as unknown as InputSchema,
      { place: PLACE },
    );
    await addEnvVariable('MODE', 'fast');
    expect(f.values().env).toEqual([{ name: 'MODE', value: 'fast' }]);
    expect(screen.queryByRole('button', { name: 'Add secret' })).toBeNull();
  });

  it('env editor: offers secrets only in a project', () => {
    renderForm(env);
    expect(screen.queryByRole('button', { name: 'Add secret' })).toBeNull();
  });

  const volumes: InputSchema = {
    type: 'object',
    properties: { volumes: { type: 'array', title: 'Volumes', 'x-type': 'volumes', items: {} } },
  };

  it('volumes editor: read-only by default, type change clears the resource, secrets read-only', async () => {
    const f = renderForm(volumes, { place: PLACE });
    fireEvent.click(screen.getByRole('button', { name: 'Add volume' }));
    type(/Resource/, 'storage:data');
    type(/Mount path/, '/data');
    expect(f.values().volumes).toEqual([
      { type: 'storage', name: '', resource: 'storage:data', path: '/data', mode: 'ro' },
    ]);
    fireEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Secret' }));
    expect(f.values().volumes).toEqual([
      { type: 'secret', name: '', resource: '', path: '/data', mode: 'ro' },
    ]);
    expect((screen.getByRole('combobox', { name: 'Mode' }) as HTMLInputElement).disabled).toBe(
      true,
    );
  });

  const presetSchema: InputSchema = {
    type: 'object',
    properties: { preset_name: { type: 'string', title: 'Preset', 'x-type': 'preset' } },
  };

  it('preset picker: falls back to the first preset with 0.5 cpu and 1 GB', async () => {
    const f = renderForm(presetSchema, {
      presets: [preset('big', 4, 16 * GB), preset('tiny', 0.1, GB), preset('std', 1, 4 * GB)],
    });
    await vi.waitFor(() => expect(f.values().preset_name).toBe('std'));
    expect((screen.getByRole('combobox', { name: 'Preset' }) as HTMLInputElement).value).toMatch(
      /^std · 1 CPU · 4 GB/,
    );
  });

  it('preset picker: warns when no preset is big enough', () => {
    renderForm(presetSchema, { presets: [preset('tiny', 0.1, GB)] });
    expect(screen.getByText('No preset name was found for the job in the cluster')).toBeTruthy();
  });

  it('image picker: typed, with Choose image in a project', () => {
    const f = renderForm(
      {
        type: 'object',
        properties: { image: { type: 'string', title: 'Image', 'x-type': 'image' } },
      },
      { place: PLACE },
    );
    type(/Image/, 'ubuntu:24.04');
    expect(f.values().image).toBe('ubuntu:24.04');
    expect(within(document.body).getByRole('button', { name: 'Choose image' })).toBeTruthy();
  });
});
