import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { SHELL_SCHEMA } from '../../../forms/testdata/apolo-schemas';
import {
  configYaml,
  fileError,
  IMPORT_MAX_BYTES,
  parseConfig,
  type ConfigTemplate,
} from './config';

const SHELL: ConfigTemplate = { name: 'shell', version: 'v25.5.1', input: SHELL_SCHEMA };
const INPUT = {
  preset: { name: 'cpu-micro' },
  networking: { ingress_http: { auth: { type: 'apolo_auth' } } },
};
const file = (name: string, size = 10) => ({ name, size });

describe('import file checks', () => {
  it('takes one .yaml or .yml file of at most 104857.6 bytes', () => {
    expect(fileError([file('a.yaml')])).toBeNull();
    expect(fileError([file('a.YML', 104857)])).toBeNull();
    expect(fileError([])).toBe('No file selected');
    expect(fileError([file('a.yaml'), file('b.yaml')])).toBe('Only one file can be imported');
    expect(fileError([file('a.json')])).toBe('The file must be a .yaml or .yml file');
    expect(fileError([file('a.yaml', 104858)])).toBe('The file is larger than 104857.6 bytes');
    expect(IMPORT_MAX_BYTES).toBe(104857.6);
  });
});

describe('parseConfig', () => {
  const yaml = (doc: unknown) => YAML.stringify(doc);

  it('accepts the exported file of the current template and version', () => {
    const text = yaml({
      display_name: 'myshell',
      template_name: 'shell',
      template_version: 'v25.5.1',
      input: INPUT,
    });
    expect(parseConfig(text, SHELL)).toEqual({ ok: true, input: INPUT, displayName: 'myshell' });
  });

  it('names the template or version expected and the one found', () => {
    const other = yaml({ template_name: 'jupyter', template_version: 'v25.5.1', input: INPUT });
    expect(parseConfig(other, SHELL)).toEqual({
      ok: false,
      message: 'Invalid template name: expected shell, got jupyter',
    });
    const old = yaml({ template_name: 'shell', template_version: 'v25.4.0', input: INPUT });
    expect(parseConfig(old, SHELL)).toEqual({
      ok: false,
      message: 'Invalid template version: expected v25.5.1, got v25.4.0',
    });
  });

  it('asks for the input field', () => {
    const text = yaml({ template_name: 'shell', template_version: 'v25.5.1' });
    expect(parseConfig(text, SHELL)).toEqual({
      ok: false,
      message: 'YAML must contain "input" field',
    });
  });

  it("reports the YAML parser's message", () => {
    const result = parseConfig('input: [unclosed', SHELL);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(
      /^Error parsing YAML: Flow sequence .* end with a \]/,
    );
  });

  it('checks the input against the template schema', () => {
    const text = yaml({
      template_name: 'shell',
      template_version: 'v25.5.1',
      input: { networking: INPUT.networking },
    });
    expect(parseConfig(text, SHELL)).toEqual({
      ok: false,
      message: 'The input does not match the template: preset.name: Required',
    });
  });
});

describe('configYaml', () => {
  it('writes display name, template, version and input, which import reads back', () => {
    const text = configYaml(SHELL, INPUT, 'myshell');
    expect(YAML.parse(text)).toEqual({
      display_name: 'myshell',
      template_name: 'shell',
      template_version: 'v25.5.1',
      input: INPUT,
    });
    expect(Object.keys(YAML.parse(configYaml(SHELL, INPUT)))).toEqual([
      'template_name',
      'template_version',
      'input',
    ]);
    expect(parseConfig(text, SHELL)).toMatchObject({ ok: true, input: INPUT });
  });
});
