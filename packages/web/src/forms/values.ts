import type { FormNode } from './schema';

/** A form value: what the schema describes, as plain JSON (numbers may be undefined or NaN). */
export type FormValue = unknown;
export type FormObject = Record<string, FormValue>;

const isObject = (v: unknown): v is FormObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** pydantic's class marker in Apolo's object defaults. */
export const TYPE_MARKER = '__type__';

/** The value of an integration input taken from another app's output. */
export interface InstanceRef {
  type: 'app-instance-ref';
  instance_id: string;
  path: string;
}
export const isInstanceRef = (v: unknown): v is InstanceRef =>
  isObject(v) && v.type === 'app-instance-ref' && typeof v.instance_id === 'string';

/** The value a form starts with: the schema's defaults, constants set, optional groups off. */
export function initialValue(node: FormNode): FormValue {
  const d = node.schema.default;
  switch (node.kind) {
    case 'null':
      return null;
    case 'container': {
      const base = isObject(d) ? d : {};
      const value = Object.fromEntries(
        node.children.map((c) => [c.name, c.name in base ? base[c.name] : initialValue(c)]),
      );
      // Apolo's defaults name their class; the value keeps the marker its processor reads.
      return TYPE_MARKER in base ? { [TYPE_MARKER]: base[TYPE_MARKER], ...value } : value;
    }
    case 'anyOf':
      if (d !== undefined) return d;
      return node.options.some((o) => o.kind === 'null') ? null : resetValue(node.options[0]);
    case 'array':
      return Array.isArray(d) ? d : [];
    case 'field':
      if (node.type === 'const') return node.schema.const;
      if (d !== undefined) return d;
      return node.type === 'boolean' ? false : node.type === 'string' ? '' : undefined;
  }
}

/**
 * The value an anyOf option starts with when the user switches to it: null, an
 * empty string, or an empty object — which then receives the option's defaults and constants.
 */
export function resetValue(node: FormNode): FormValue {
  if (node.kind === 'null') return null;
  if (node.kind === 'container')
    return initialValue({ ...node, schema: { ...node.schema, default: undefined } });
  if (node.kind === 'field' && (node.type === 'string' || node.type === 'enum')) return '';
  return initialValue(node);
}

/**
 * Which option of an anyOf the value belongs to: null to the null option, objects to the option
 * whose constants they carry (or whose properties they use), plain values by their type.
 */
export const activeOption = (options: FormNode[], value: FormValue): number =>
  options.findIndex((o) => matches(o, value));

function matches(o: FormNode, v: FormValue): boolean {
  if (o.kind === 'null') return v === null;
  if (v === null || v === undefined) return false;
  if (o.kind === 'container') {
    if (!isObject(v)) return false;
    const marker = v[TYPE_MARKER];
    if (typeof marker === 'string' && o.className) return marker === o.className;
    const names = new Set([...o.children.map((c) => c.name), TYPE_MARKER]);
    // Constants must agree, and a value given must have the child's shape: two options with
    // the same property names (an enum vs an image object) still tell apart.
    const childrenAgree = o.children.every((c) => {
      if (c.kind === 'field' && c.type === 'const') return v[c.name] === c.schema.const;
      const cv = v[c.name];
      return cv === undefined || c.kind === 'anyOf' || c.kind === 'null' || matches(c, cv);
    });
    return childrenAgree && Object.keys(v).every((k) => names.has(k));
  }
  if (o.kind === 'array') return Array.isArray(v);
  if (o.kind === 'field') {
    if (o.type === 'const') return v === o.schema.const;
    if (o.type === 'enum') return o.options.some((opt) => opt.value === String(v));
    if (o.type === 'boolean') return typeof v === 'boolean';
    if (o.type === 'string') return typeof v === 'string';
    return typeof v === 'number';
  }
  return false;
}

/**
 * Number input: empty becomes undefined, a decimal comma becomes a point, decimals
 * are truncated to two digits. Anything else non-numeric is NaN, which validation reports.
 */
export function parseNumberInput(text: string): number | undefined {
  const t = text.trim().replace(',', '.');
  if (t === '') return undefined;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) return NaN;
  const [whole, decimals = ''] = t.split('.');
  return Number(decimals ? `${whole}.${decimals.slice(0, 2)}` : whole);
}

/** Tags input: split by comma, trimmed, empties and duplicates dropped. */
export const parseTags = (text: string): string[] => [
  ...new Set(
    text
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t.length > 0),
  ),
];

/** A copy of `root` with the value at a dotted path replaced. */
export function setIn(root: FormValue, path: string, value: FormValue): FormValue {
  if (path === '') return value;
  const [head, ...rest] = path.split('.');
  const restPath = rest.join('.');
  if (Array.isArray(root)) {
    const copy = [...root];
    copy[Number(head)] = setIn(root[Number(head)], restPath, value);
    return copy;
  }
  const obj = isObject(root) ? root : {};
  return { ...obj, [head]: setIn(obj[head], restPath, value) };
}

export function getIn(root: FormValue, path: string): FormValue {
  if (path === '') return root;
  return path
    .split('.')
    .reduce<FormValue>(
      (v, k) => (Array.isArray(v) ? v[Number(k)] : isObject(v) ? v[k] : undefined),
      root,
    );
}
