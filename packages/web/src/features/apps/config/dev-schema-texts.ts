/** Texts of the Dev Schema page (the engine's own). */
export const DEV_SCHEMA_TEXTS = {
  title: 'Dev Schema',
  intro:
    "Paste an app template's input JSON Schema (Orrery's or Apolo's vocabulary) to see the form it gives.",
  schemaLabel: 'Input schema (JSON)',
  parseErrorTitle: 'This schema cannot be shown as a form',
  invalidJson: (message: string) => `Invalid JSON: ${message}`,
  notAnObject: 'The schema must be a JSON object',
  check: 'Check',
  valid: 'The form is valid',
  invalid: 'The form has errors',
  valuesLabel: 'Values',
} as const;

/** What the page starts with: a small schema in Apolo's vocabulary. */
export const DEV_SCHEMA_EXAMPLE = JSON.stringify(
  {
    type: 'object',
    $defs: {
      Preset: {
        type: 'object',
        'x-type': 'Preset',
        'x-title': 'Resource Preset',
        properties: { name: { type: 'string' } },
        required: ['name'],
      },
    },
    properties: {
      preset: { $ref: '#/$defs/Preset' },
      name: { type: 'string', 'x-title': 'Name', pattern: '^[a-z0-9]+$' },
    },
    required: ['preset'],
  },
  null,
  2,
);
