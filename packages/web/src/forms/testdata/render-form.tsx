import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { renderSignedIn, type RenderOptions } from '../../test/render';
import type { FormEnvironment } from '../environment';
import type { FormSchema } from '../refs';
import { SchemaFields } from '../SchemaFields';
import { useSchemaForm, type SchemaForm, type SchemaFormOptions } from '../useSchemaForm';

export const PLACE = { clusterName: 'default', orgName: 'acme', projectName: 'vision' };

/** Renders a schema's form with a Check button that validates, and exposes the form. */
export function renderForm(
  schema: FormSchema,
  env: Partial<FormEnvironment> = {},
  options: SchemaFormOptions & { render?: RenderOptions } = {},
) {
  const current: { form: SchemaForm | null } = { form: null };
  function Harness() {
    const form = useSchemaForm(schema, options);
    current.form = form;
    return (
      <>
        <SchemaFields form={form} env={{ place: null, presets: [], subject: 'job', ...env }} />
        <button onClick={() => form.validate()}>Check</button>
      </>
    );
  }
  renderSignedIn(<Harness />, { withContext: false, ...options.render });
  return {
    values: () => current.form!.values as Record<string, unknown>,
    valid: () => current.form!.valid,
    check: () => fireEvent.click(screen.getByRole('button', { name: 'Check' })),
    setErrors: (e: Record<string, string>) => current.form!.setErrors(e),
  };
}

export const type = (label: RegExp | string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

/** Adds one variable through "The Environment Variable" dialog. */
export async function addEnvVariable(name: string, value: string) {
  fireEvent.click(screen.getByRole('button', { name: 'Add variable' }));
  const dialog = await screen.findByRole('dialog', { name: 'The Environment Variable' });
  fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: name } });
  fireEvent.change(within(dialog).getByLabelText(/^Value/), { target: { value } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}
