import { patternMessage } from '@orrery/contract';
import type { FieldCheck, FieldNode, FormNode } from './schema';
import { childPath, integrationOf } from './schema';
import { FORM_MESSAGES as M } from './texts';
import { activeOption, isInstanceRef, type FormValue } from './values';

/** Messages by dotted path (`http.port`, `env.0.name`); the form shows each on its input. */
export type FormErrors = Record<string, string>;

/** The pattern messages live in the contract, shared with the server's check. */
export { patternMessage };

/** The message for one field's value, or null when it is valid. */
export function fieldError(node: FieldNode, value: FormValue): string | null {
  const s = node.schema;
  const own =
    node.check && typeof value === 'string' && value !== '' ? checkError(node.check, value) : null;
  if (own) return own;
  switch (node.type) {
    case 'const':
    case 'boolean':
      return null;
    case 'enum': {
      const empty = value === undefined || value === null || value === '';
      if (empty) return node.required ? M.required : null;
      return node.options.some((o) => o.value === String(value)) ? null : M.notAnOption;
    }
    case 'string': {
      const text = typeof value === 'string' ? value : '';
      if (text.length < 1) return node.required ? M.required : null;
      if (s.pattern && !new RegExp(s.pattern).test(text))
        return patternMessage(s.pattern, s['x-pattern-name']);
      if (s.minLength !== undefined && text.length < s.minLength) return M.minLength(s.minLength);
      if (s.maxLength !== undefined && text.length > s.maxLength) return M.maxLength(s.maxLength);
      return null;
    }
    case 'integer':
    case 'number': {
      if (value === undefined || value === null || value === '')
        return node.required ? M.required : null;
      if (typeof value !== 'number' || Number.isNaN(value))
        return node.required ? M.required : M.notANumber;
      if (node.type === 'integer' && !Number.isInteger(value)) return M.notAnInteger;
      if (s.minimum !== undefined && value < s.minimum) return M.minimum(s.minimum);
      if (s.maximum !== undefined && value > s.maximum) return M.maximum(s.maximum);
      return null;
    }
  }
}

function checkError(check: FieldCheck, value: string): string | null {
  if (check === 'storagePath') return value.startsWith('storage:') ? null : M.storagePath;
  return value.startsWith('/') ? null : M.absolutePath;
}

/** Every error of a value against its node (derived from the input schema). */
export function validate(node: FormNode, value: FormValue, path = ''): FormErrors {
  const errors: FormErrors = {};
  const visit = (n: FormNode, v: FormValue, p: string) => {
    // A reference to another app's output is checked by the server, which resolves it.
    if (isInstanceRef(v) && (n.metaType !== 'inline' || integrationOf(n))) return;
    switch (n.kind) {
      case 'null':
        return;
      case 'field': {
        const e = fieldError(n, v);
        if (e) errors[p] = e;
        return;
      }
      case 'container': {
        const obj = (v ?? {}) as Record<string, FormValue>;
        for (const c of n.children) visit(c, obj[c.name], childPath(p, c.name));
        return;
      }
      case 'anyOf': {
        const i = activeOption(n.options, v);
        if (i >= 0) visit(n.options[i], v, p);
        // Undefined under a checked checkbox is a number switched on but left empty.
        else if (n.required || (v !== null && (v !== undefined || n.mode !== 'select')))
          errors[p] = M.required;
        return;
      }
      case 'array': {
        const items = Array.isArray(v) ? v : [];
        items.forEach((item, i) => visit(n.item, item, childPath(p, i)));
        return;
      }
    }
  };
  visit(node, value, path);
  return errors;
}

/** True when an error lies at or under a path: collapsed sections open to show it. */
export const hasErrorUnder = (errors: FormErrors, path: string) =>
  Object.keys(errors).some((k) => k === path || k.startsWith(`${path}.`));
