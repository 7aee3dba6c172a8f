import type { InputSchema, InputWidget } from '@orrery/contract';
import { FORM_TEXTS } from './texts';

/**
 * An input JSON Schema as the form sees it (workloads §3 Form field schema): a tree of nodes of
 * four kinds. Built once per schema; rendering, validation and defaults all walk this tree.
 */
export type FieldType = 'boolean' | 'string' | 'enum' | 'integer' | 'number' | 'const';
export type AnyOfMode = 'checkbox' | 'collapsible' | 'select';

interface NodeBase {
  /** Property name; '' for the root and for array items. */
  name: string;
  title: string;
  description?: string;
  required: boolean;
  schema: InputSchema;
}
export interface FieldNode extends NodeBase {
  kind: 'field';
  type: FieldType;
  widget?: InputWidget;
  options: { value: string; label: string }[];
}
export interface ContainerNode extends NodeBase {
  kind: 'container';
  children: FormNode[];
}
export interface AnyOfNode extends NodeBase {
  kind: 'anyOf';
  mode: AnyOfMode;
  options: FormNode[];
}
export interface ArrayNode extends NodeBase {
  kind: 'array';
  item: FormNode;
  widget?: InputWidget;
}
/** The `null` choice of an anyOf; renders nothing. */
export interface NullNode extends NodeBase {
  kind: 'null';
}
export type FormNode = FieldNode | ContainerNode | AnyOfNode | ArrayNode | NullNode;

/** `x-title` wins over `title`; a property without either is labelled with its name. */
const titleOf = (s: InputSchema, name: string) => s['x-title'] ?? s.title ?? humanize(name);
const humanize = (name: string) =>
  name ? name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ') : '';

function fieldType(s: InputSchema): FieldType | null {
  if ('const' in s) return 'const';
  if (s.enum) return 'enum';
  if (s.type === 'boolean' || s.type === 'string' || s.type === 'integer') return s.type;
  // The spec's "float" is JSON Schema's number.
  if (s.type === 'number' || (s.type as string) === 'float') return 'number';
  return null;
}

export function buildNode(schema: InputSchema, name = '', required = false): FormNode {
  const base = {
    name,
    title: titleOf(schema, name),
    description: schema['x-description'] ?? schema.description,
    required,
    schema,
  };
  if (schema.anyOf) {
    const options = schema.anyOf.map((o) => buildNode(o, name, required));
    return { ...base, kind: 'anyOf', mode: anyOfMode(options), options };
  }
  if (schema.type === 'null') return { ...base, kind: 'null' };
  if (schema.type === 'object' || schema.properties) {
    const req = new Set(schema.required ?? []);
    const children = Object.entries(schema.properties ?? {}).map(([key, child]) =>
      buildNode(child, key, req.has(key)),
    );
    return { ...base, kind: 'container', children };
  }
  if (schema.type === 'array') {
    return {
      ...base,
      kind: 'array',
      item: buildNode(schema.items ?? { type: 'string' }, '', true),
      widget: schema['x-type'],
    };
  }
  const type = fieldType(schema) ?? 'string';
  const titles = schema['x-enum-titles'] ?? [];
  return {
    ...base,
    kind: 'field',
    type,
    widget: schema['x-type'],
    options: (schema.enum ?? []).map((v, i) => ({
      value: String(v),
      label: titles[i] ?? String(v),
    })),
  };
}

/**
 * workloads §4: a checkbox for "this or nothing" with a plain value, a collapsible section for
 * "this group or nothing", a select otherwise.
 */
function anyOfMode(options: FormNode[]): AnyOfMode {
  const nonNull = options.filter((o) => o.kind !== 'null');
  if (options.length !== 2 || nonNull.length !== 1) return 'select';
  return nonNull[0].kind === 'container' ? 'collapsible' : 'checkbox';
}

/** The label of an anyOf option in a select. */
export const optionLabel = (o: FormNode) =>
  o.kind === 'null'
    ? FORM_TEXTS.nullOption
    : (o.schema['x-title'] ?? o.schema.title ?? o.schema.type ?? FORM_TEXTS.anyOfPlaceholder);

/** Dotted path of a child: `http.port`, `env.0.name`. */
export const childPath = (parent: string, key: string | number) =>
  parent ? `${parent}.${key}` : String(key);
