import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { patternMessage, type AppInputError } from '@orrery/contract';

type Schema = Record<string, unknown>;

/**
 * Validation of an app's input against its template's JSON Schema (Apolo's vocabulary: `$defs`,
 * `$ref`, `anyOf` with null, `x-` hints that Ajv leaves alone). Defaults are filled in, so the
 * runner plans from a complete input.
 */
// `verbose` hands each error its schema: a pattern's message needs the schema's `x-pattern-name`.
const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, verbose: true });
const compiled = new WeakMap<Schema, ValidateFunction>();

const pathOf = (e: ErrorObject) => {
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') path.push(String(e.params.missingProperty));
  return path;
};

/** Ajv's words, but a pattern's message as the console gives it, not the regex. */
const messageOf = (e: ErrorObject) =>
  e.keyword === 'pattern'
    ? patternMessage(
        String(e.params.pattern),
        (e.parentSchema as Schema | undefined)?.['x-pattern-name'],
      )
    : (e.message ?? 'Invalid value');

/** The input's errors (path items are strings); none when it is valid. Fills in defaults. */
export function validateInput(schema: Schema, input: Record<string, unknown>): AppInputError[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(input)) return [];
  // An anyOf reports each branch's complaint; the first per path is the one a person can act on.
  const seen = new Set<string>();
  const errors: AppInputError[] = [];
  for (const e of validate.errors ?? []) {
    const path = pathOf(e);
    const key = path.join('\u0000');
    if (seen.has(key)) continue;
    seen.add(key);
    errors.push({ path, message: messageOf(e) });
  }
  return errors;
}

/** A subschema with `$ref: "#/$defs/X"` (or `#/definitions/X`) followed, one level at a time. */
export function deref(root: Schema, s: Schema | undefined): Schema | undefined {
  let at = s;
  for (let i = 0; at && typeof at.$ref === 'string' && i < 16; i++) {
    const steps = (at.$ref as string).replace(/^#\//, '').split('/');
    at = steps.reduce<unknown>((o, k) => (o as Schema | undefined)?.[k], root) as
      Schema | undefined;
  }
  return at;
}

/** The schema of each top-level property, `$ref` followed. */
export function propertiesOf(root: Schema): Record<string, Schema> {
  const props = (deref(root, root)?.properties ?? {}) as Record<string, Schema>;
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, deref(root, v) ?? v]));
}

/** Whether a property (or any `anyOf` branch of it) carries `key: value`. */
export function hasHint(root: Schema, s: Schema, key: string, value: unknown): boolean {
  if (s[key] === value) return true;
  const branches = (s.anyOf ?? s.oneOf ?? []) as Schema[];
  return branches.some((b) => deref(root, b)?.[key] === value);
}
