/** The schema-driven form engine (docs/forms.md), shared by the job form and app forms. */
export { SchemaFields } from './SchemaFields';
export {
  useSchemaForm,
  schemaRoot,
  type SchemaForm,
  type SchemaFormOptions,
} from './useSchemaForm';
export type { FormEnvironment, Preset } from './environment';
export type { FormSchema } from './refs';
export { toWireEnv, type EnvEntry } from './env';
export { toWireVolumes, type VolumeEntry } from './volumes';
export { serverFieldErrors } from './server-errors';
export { validate } from './rules';
export { FORM_MESSAGES, FORM_TEXTS } from './texts';
export type { FormErrors } from './rules';
export type { FormNode } from './schema';
export { isInstanceRef, type InstanceRef } from './values';
