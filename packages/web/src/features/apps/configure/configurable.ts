import type { FormSchema } from '../../../forms';
import { inlineRefs } from '../../../forms/refs';

/**
 * What Configure may change (`PUT instances/{id}` of the apps API): the top-level inputs that say
 * `x-is-configurable: true`, on themselves or on one of their `anyOf` branches. The server
 * refuses a change to any other input with "This field cannot be changed after install"
 * (modules/apps/service.ts `configure`), so the page follows the same rule.
 */
const marked = (s: FormSchema) =>
  s['x-is-configurable'] === true || (s.anyOf ?? []).some((b) => b['x-is-configurable'] === true);

export function configurableKeys(schema: FormSchema): string[] {
  const props = inlineRefs(schema).properties ?? {};
  return Object.keys(props).filter((k) => marked(props[k]));
}

/**
 * The schema as the Configure form shows it: every top-level input the server would refuse (all
 * of them when the user may not configure) is marked `x-is-configurable: false`, which the form
 * engine shows read-only in configure mode.
 */
export function configureSchema(schema: FormSchema, opts: { readOnly?: boolean } = {}): FormSchema {
  const inlined = inlineRefs(schema);
  const props = inlined.properties ?? {};
  return {
    ...inlined,
    properties: Object.fromEntries(
      Object.entries(props).map(([k, s]) => [
        k,
        marked(s) && !opts.readOnly ? s : { ...s, 'x-is-configurable': false },
      ]),
    ),
  };
}

/** The body's input: only the configurable inputs, whatever else the form holds. */
export function configurableInput(
  values: unknown,
  keys: readonly string[],
): Record<string, unknown> {
  const all = (values ?? {}) as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => k in all).map((k) => [k, all[k]]));
}
