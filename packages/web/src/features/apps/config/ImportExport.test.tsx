import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { SHELL_SCHEMA } from '../../../forms/testdata/apolo-schemas';
import { renderSignedIn } from '../../../test/render';
import type { ConfigTemplate } from './config';
import { ExportConfigButton } from './ExportConfigButton';
import { ImportConfigButton } from './ImportConfigButton';
import { captureDownloads } from '../../../test/downloads';

const SHELL: ConfigTemplate = { name: 'shell', version: 'v25.5.1', input: SHELL_SCHEMA };
const INPUT = {
  preset: { name: 'cpu-micro' },
  networking: { ingress_http: { auth: { type: 'apolo_auth' } } },
};
const yamlFile = (doc: unknown, name = 'shell.yaml') =>
  new File([typeof doc === 'string' ? doc : YAML.stringify(doc)], name, { type: 'text/yaml' });
const good = { template_name: 'shell', template_version: 'v25.5.1', input: INPUT };

function openImport() {
  const onApply = vi.fn();
  renderSignedIn(<ImportConfigButton template={SHELL} onApply={onApply} />, {
    withContext: false,
  });
  fireEvent.click(screen.getByRole('button', { name: 'Import App Configuration' }));
  const dialog = screen.getByRole('dialog', { name: 'Import App Configuration' });
  const apply = within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement;
  const choose = (file: File) =>
    fireEvent.change(dialog.querySelector('input[type=file]')!, { target: { files: [file] } });
  const drop = (files: File[]) =>
    fireEvent.drop(within(dialog).getByTestId('config-drop'), { dataTransfer: { files } });
  return { onApply, dialog, apply, choose, drop };
}

describe('Import App Configuration', () => {
  it('keeps Apply disabled until a valid file is loaded, then hands its input over', async () => {
    const { onApply, dialog, apply, choose } = openImport();
    expect(apply.disabled).toBe(true);
    choose(yamlFile({ display_name: 'myshell', ...good }));
    expect(await within(dialog).findByText('shell.yaml is valid')).toBeTruthy();
    expect(apply.disabled).toBe(false);
    fireEvent.click(apply);
    expect(onApply).toHaveBeenCalledWith(INPUT, 'myshell');
  });

  it.each([
    [{ ...good, template_name: 'jupyter' }, 'Invalid template name: expected shell, got jupyter'],
    [{ ...good, template_version: 'v1' }, 'Invalid template version: expected v25.5.1, got v1'],
    [{ template_name: 'shell', template_version: 'v25.5.1' }, 'YAML must contain "input" field'],
  ])('refuses a file that does not fit the template: %j', async (doc, message) => {
    const { dialog, apply, choose } = openImport();
    choose(yamlFile(doc));
    expect(await within(dialog).findByText(message)).toBeTruthy();
    expect(apply.disabled).toBe(true);
  });

  it('shows the parser error in the dialog and as a toast', async () => {
    const { dialog, apply, choose } = openImport();
    choose(yamlFile('input: [unclosed'));
    const shown = await within(dialog).findByText(/^Error parsing YAML: Flow sequence/);
    expect(shown).toBeTruthy();
    expect((await screen.findAllByText(/^Error parsing YAML: Flow sequence/)).length).toBe(2);
    expect(apply.disabled).toBe(true);
  });

  it('reports the first file error under "File Import App Configuration error"', async () => {
    const { dialog, apply, drop } = openImport();
    drop([yamlFile(good, 'a.yaml'), yamlFile(good, 'b.yaml')]);
    expect(await within(dialog).findByText('File Import App Configuration error')).toBeTruthy();
    expect(within(dialog).getByText('Only one file can be imported')).toBeTruthy();
    drop([yamlFile(good, 'config.json')]);
    expect(await within(dialog).findByText('The file must be a .yaml or .yml file')).toBeTruthy();
    drop([yamlFile(`# ${'x'.repeat(104858)}\n${YAML.stringify(good)}`)]);
    expect(await within(dialog).findByText('The file is larger than 104857.6 bytes')).toBeTruthy();
    expect(apply.disabled).toBe(true);
  });

  it('says "No file selected" when the drop held no file', async () => {
    const { dialog, drop } = openImport();
    drop([]);
    expect((await within(dialog).findAllByText('No file selected')).length).toBe(1);
    expect((await screen.findAllByText('No file selected')).length).toBe(2);
  });

  it('says "Error reading file" when the file cannot be read', async () => {
    const { dialog, choose } = openImport();
    const broken = yamlFile(good);
    broken.text = () => Promise.reject(new Error('gone'));
    choose(broken);
    expect(await within(dialog).findByText('Error reading file')).toBeTruthy();
  });
});

describe('Export App Configuration', () => {
  it('is disabled while the form is not valid', () => {
    renderSignedIn(<ExportConfigButton template={SHELL} values={{}} valid={false} />, {
      withContext: false,
    });
    const button = screen.getByRole('button', { name: 'Export App Configuration' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });

  it('downloads template, version and input as <template>-<version>.yaml', async () => {
    const { blobs, clicked } = captureDownloads();
    renderSignedIn(
      <ExportConfigButton template={SHELL} values={INPUT} valid displayName="myshell" />,
      { withContext: false },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Export App Configuration' }));
    expect(clicked.map((a) => a.download)).toEqual(['shell-v25.5.1.yaml']);
    expect(YAML.parse(await blobs[0].text())).toEqual({
      display_name: 'myshell',
      ...good,
    });
    vi.restoreAllMocks();
  });
});
