import type { InputSchema } from '@orrery/contract';

/**
 * A schema as templates write it: Orrery's own vocabulary (contract `InputSchema`) or Apolo's
 * (docs/forms.md): `$defs` + `$ref`, `allOf` wrappers, class names in `x-type` and the
 * `x-meta-type`, `x-is-advanced-field`, `x-is-configurable` hints.
 */
export type FormSchema = Omit<InputSchema, 'x-type' | 'properties' | 'items' | 'anyOf'> & {
  'x-type'?: string;
  properties?: Record<string, FormSchema>;
  items?: FormSchema;
  anyOf?: readonly FormSchema[];
  oneOf?: readonly FormSchema[];
  allOf?: readonly FormSchema[];
  $ref?: string;
  $defs?: Record<string, FormSchema>;
  definitions?: Record<string, FormSchema>;
  'x-meta-type'?: 'inline' | 'integration' | 'dynamic';
  'x-is-advanced-field'?: boolean;
  'x-is-configurable'?: boolean;
};

const REF = /^#\/(\$defs|definitions)\/(.+)$/;
const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The schema with every local `$ref` replaced by its definition (what Apolo's
 * `get_inline_schema` does), so the rest of the engine sees plain nested schemas. Keywords next to
 * a `$ref` (pydantic puts `x-title`, `default` there) win over the definition's. A definition
 * that refers to itself, directly or through others, is expanded once: the inner reference
 * becomes an untyped object, which the form shows as an empty group instead of looping.
 */
export function inlineRefs(schema: FormSchema): FormSchema {
  const defs = { ...schema.definitions, ...schema.$defs };
  const visit = (s: FormSchema, open: readonly string[]): FormSchema => {
    let node = s;
    // `allOf: [{$ref}]` is how older generators attach siblings to a reference.
    if (node.allOf?.length === 1 && !node.$ref) {
      const { allOf, ...rest } = node;
      node = { ...allOf[0], ...rest };
    }
    if (node.$ref) {
      const { $ref, ...siblings } = node;
      const m = REF.exec($ref);
      const name = m ? unescape(m[2]) : '';
      const target = m ? defs[name] : undefined;
      if (!target) throw new Error(`Could not extract app schema: unknown reference ${$ref}`);
      if (open.includes(name)) return { type: 'object', title: target.title, ...siblings };
      return visit({ ...target, ...siblings }, [...open, name]);
    }
    const out: FormSchema = { ...node };
    delete out.$defs;
    delete out.definitions;
    if (node.properties)
      out.properties = Object.fromEntries(
        Object.entries(node.properties).map(([k, v]) => [k, visit(v, open)]),
      );
    if (node.items) out.items = visit(node.items, open);
    // oneOf is read as anyOf: a form chooses one option either way.
    const union = node.anyOf ?? node.oneOf;
    if (union) {
      out.anyOf = union.map((o) => visit(o, open));
      delete out.oneOf;
    }
    if (node.allOf && node.allOf.length > 1) {
      // Several parts: their properties merge into one group.
      const parts = node.allOf.map((p) => visit(p, open));
      delete out.allOf;
      out.type = 'object';
      out.properties = Object.assign({}, ...parts.map((p) => p.properties), out.properties);
      out.required = [...parts.flatMap((p) => p.required ?? []), ...(out.required ?? [])];
    }
    return out;
  };
  return visit(schema, []);
}
