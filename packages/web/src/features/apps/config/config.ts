import YAML from 'yaml';
import { schemaRoot, validate, type FormSchema } from '../../../forms';
import { CONFIG_TEXTS as T } from './texts';

/** The largest configuration file Import accepts. */
export const IMPORT_MAX_BYTES = 104857.6;

/** The template a form installs, as Import checks against and Export writes. */
export interface ConfigTemplate {
  name: string;
  version: string;
  input: FormSchema;
}

/** The exported configuration file: template name, version and input. */
export interface AppConfig {
  display_name?: string;
  template_name: string;
  template_version: string;
  input: unknown;
}

export type ParsedConfig =
  { ok: true; input: unknown; displayName?: string } | { ok: false; message: string };

/**
 * The file errors (one file, .yaml/.yml, at most 104857.6 bytes), first one
 * first, or null for a file that may be read.
 */
export function fileError(files: readonly Pick<File, 'name' | 'size'>[]): string | null {
  if (files.length === 0) return T.noFile;
  if (files.length > 1) return T.tooManyFiles;
  const [file] = files;
  if (!/\.ya?ml$/i.test(file.name)) return T.wrongType;
  if (file.size > IMPORT_MAX_BYTES) return T.tooLarge(IMPORT_MAX_BYTES);
  return null;
}

/** Checks a configuration file's text against the current template. */
export function parseConfig(text: string, template: ConfigTemplate): ParsedConfig {
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (e) {
    return { ok: false, message: T.parseError(e instanceof Error ? e.message : String(e)) };
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    return { ok: false, message: T.notAMapping };
  const config = doc as Partial<AppConfig>;
  if (config.template_name !== template.name)
    return { ok: false, message: T.invalidName(template.name, config.template_name) };
  if (String(config.template_version) !== template.version)
    return { ok: false, message: T.invalidVersion(template.version, config.template_version) };
  if (!('input' in config) || config.input === undefined) return { ok: false, message: T.noInput };
  const errors = Object.entries(validate(schemaRoot(template.input), config.input));
  if (errors.length > 0) return { ok: false, message: T.invalidInput(...errors[0]) };
  const displayName = typeof config.display_name === 'string' ? config.display_name : undefined;
  return { ok: true, input: config.input, displayName };
}

/** The YAML Export writes: `{display_name?, template_name, template_version, input}`. */
export function configYaml(template: ConfigTemplate, input: unknown, displayName?: string) {
  const config: AppConfig = {
    ...(displayName ? { display_name: displayName } : {}),
    template_name: template.name,
    template_version: template.version,
    input,
  };
  return YAML.stringify(config);
}
