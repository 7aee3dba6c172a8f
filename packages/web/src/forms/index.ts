/** The schema-driven form engine (docs/forms.md), shared by the job form and app forms. */
export { SchemaFields } from './SchemaFields';
export { useSchemaForm, type SchemaForm } from './useSchemaForm';
export type { FormEnvironment, FormPlace, Preset } from './environment';
export { toWireEnv, type EnvEntry } from './env';
export { toWireVolumes, type VolumeEntry } from './volumes';
export { serverFieldErrors } from './server-errors';
export { FORM_MESSAGES, FORM_TEXTS } from './texts';
export type { FormErrors } from './rules';
