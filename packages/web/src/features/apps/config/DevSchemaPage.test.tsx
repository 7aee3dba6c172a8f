import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { JUPYTER_SCHEMA } from '../../../forms/testdata/apolo-schemas';
import { renderSignedIn } from '../../../test/render';
import DevSchemaPage from './DevSchemaPage';

const paste = (text: string) =>
  fireEvent.change(screen.getByLabelText('Input schema (JSON)'), { target: { value: text } });

describe('Dev Schema page', () => {
  it('shows the form of the example schema and checks it', async () => {
    renderSignedIn(<DevSchemaPage />);
    expect(screen.getByRole('heading', { name: 'Dev Schema' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Resource Preset' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'a-b' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText('Only letters and numbers are allowed.')).toBeTruthy();
    expect(screen.getByText('The form has errors')).toBeTruthy();
  });

  it('renders a pasted Apolo schema live, with its values', () => {
    renderSignedIn(<DevSchemaPage />);
    paste(JSON.stringify(JUPYTER_SCHEMA));
    expect(screen.getByRole('combobox', { name: 'Container Settings' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Override Default Storage Mount' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Networking Settings' })).toBeTruthy();
    expect(screen.getByText('MLFlow Integration')).toBeTruthy();
    expect(screen.getByLabelText('Values').textContent).toContain('"__type__": "DefaultContainer"');
  });

  it('shows why a schema cannot be a form', () => {
    renderSignedIn(<DevSchemaPage />);
    paste('{"type": "object",');
    expect(screen.getByText('This schema cannot be shown as a form')).toBeTruthy();
    expect(screen.getByText(/^Invalid JSON: /)).toBeTruthy();
    paste('[1, 2]');
    expect(screen.getByText('The schema must be a JSON object')).toBeTruthy();
    paste('{"properties": {"a": {"$ref": "#/$defs/Gone"}}}');
    expect(
      screen.getByText('Could not extract app schema: unknown reference #/$defs/Gone'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Check' })).toBeNull();
  });
});
