import type { InputWidget } from '@orrery/contract';
import type { FormSchema } from './refs';
import { FORM_TEXTS } from './texts';

/**
 * An input JSON Schema as the form sees it: a tree of nodes of
 * four kinds. Built once per schema; rendering, validation and defaults all walk this tree.
 */
export type FieldType = 'boolean' | 'string' | 'enum' | 'integer' | 'number' | 'const';
export type AnyOfMode = 'checkbox' | 'collapsible' | 'select';
/**
 * The special input of a field. Orrery's own `x-type` values name it directly; Apolo's class
 * names are read on the object that wraps the field (see WRAPPERS).
 */
export type Widget = InputWidget | 'filesPath' | 'mountPath' | 'secret';
/** A check beyond the schema's keywords, implied by an Apolo class. */
export type FieldCheck = 'storagePath' | 'absolutePath';
export type MetaType = 'inline' | 'integration' | 'dynamic';

interface NodeBase {
  /** Property name; '' for the root and for array items. */
  name: string;
  title: string;
  description?: string;
  required: boolean;
  schema: FormSchema;
  /** `x-is-advanced-field`: shown in the collapsed Advanced section of its group. */
  advanced: boolean;
  /** `x-is-configurable` (default true; false for everything under a non-configurable node). */
  configurable: boolean;
  /** `x-meta-type`: an integration input also takes a reference to another app's output. */
  metaType: MetaType;
  /** Apolo's class name (`x-type` that is not one of Orrery's widgets). */
  className?: string;
}
export interface FieldNode extends NodeBase {
  kind: 'field';
  type: FieldType;
  widget?: Widget;
  check?: FieldCheck;
  /** For an image field inside a ContainerImage: the sibling that takes the chosen tag. */
  tagField?: string;
  options: { value: string; label: string }[];
}
export interface ContainerNode extends NodeBase {
  kind: 'container';
  children: FormNode[];
  /**
   * An Apolo class around one value (`Preset {name}`, `ApoloFilesPath {path}`, …): shown as
   * that single input, labelled with the class's title.
   */
  wraps?: string;
}
export interface AnyOfNode extends NodeBase {
  kind: 'anyOf';
  mode: AnyOfMode;
  options: FormNode[];
}
export interface ArrayNode extends NodeBase {
  kind: 'array';
  item: FormNode;
  widget?: Widget;
}
/** The `null` choice of an anyOf; renders nothing. */
export interface NullNode extends NodeBase {
  kind: 'null';
}
export type FormNode = FieldNode | ContainerNode | AnyOfNode | ArrayNode | NullNode;

/** `x-title` wins over `title`; a property without either is labelled with its name. */
const titleOf = (s: FormSchema, name: string) => s['x-title'] ?? s.title ?? humanize(name);
const humanize = (name: string) =>
  name ? name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ') : '';

function fieldType(s: FormSchema): FieldType | null {
  if ('const' in s) return 'const';
  if (s.enum) return 'enum';
  if (s.type === 'boolean' || s.type === 'string' || s.type === 'integer') return s.type;
  // The form's "float" is JSON Schema's number.
  if (s.type === 'number' || (s.type as string) === 'float') return 'number';
  return null;
}

const ORRERY_WIDGETS: readonly string[] = ['image', 'preset', 'tags', 'env', 'volumes', 'textarea'];

/** Apolo classes that wrap one value: the property holding it, its input and its check. */
const WRAPPERS: Record<string, { field: string; widget?: Widget; check?: FieldCheck }> = {
  Preset: { field: 'name', widget: 'preset' },
  ApoloFilesPath: { field: 'path', widget: 'filesPath', check: 'storagePath' },
  MountPath: { field: 'path', widget: 'mountPath', check: 'absolutePath' },
  ApoloMountMode: { field: 'mode' },
  ApoloSecret: { field: 'key', widget: 'secret' },
};

/**
 * `x-type` means two things (docs/forms.md): one of Orrery's lowercase widget names, or an
 * Apolo class name. Widget names are kept as they are; anything else is a class name.
 */
const widgetOf = (s: FormSchema) =>
  s['x-type'] && ORRERY_WIDGETS.includes(s['x-type']) ? (s['x-type'] as Widget) : undefined;
const classOf = (s: FormSchema) =>
  s['x-type'] && !ORRERY_WIDGETS.includes(s['x-type']) ? s['x-type'] : undefined;

/** The node tree of a schema that has no `$ref` left (see `inlineRefs`). */
export function buildNode(
  schema: FormSchema,
  name = '',
  required = false,
  parentConfigurable = true,
): FormNode {
  const configurable = parentConfigurable && schema['x-is-configurable'] !== false;
  const base = {
    name,
    title: titleOf(schema, name),
    description: schema['x-description'] ?? schema.description,
    required,
    schema,
    advanced: schema['x-is-advanced-field'] === true,
    configurable,
    metaType: schema['x-meta-type'] ?? 'inline',
    className: classOf(schema),
  };
  if (schema.anyOf) {
    const options = schema.anyOf.map((o) => ({
      ...buildNode(o, name, required, configurable),
      // An option's own hints must not hide or relabel the field it is an option of.
      advanced: false,
    }));
    // `X | None` without a title of its own is labelled by X's class title.
    const nonNull = options.filter((o) => o.kind !== 'null');
    const untitled = !schema['x-title'] && !schema.title;
    const title =
      untitled && nonNull.length === 1 ? (nonNull[0].schema['x-title'] ?? base.title) : base.title;
    return { ...base, title, kind: 'anyOf', mode: anyOfMode(options), options };
  }
  if (schema.type === 'null') return { ...base, kind: 'null' };
  if (schema.type === 'object' || schema.properties) {
    const req = new Set(schema.required ?? []);
    const wrapper = base.className ? WRAPPERS[base.className] : undefined;
    const children = Object.entries(schema.properties ?? {}).map(([key, child]) => {
      const node = buildNode(child, key, req.has(key), configurable);
      if (node.kind !== 'field') return node;
      if (wrapper?.field === key)
        return { ...node, widget: wrapper.widget ?? node.widget, check: wrapper.check };
      if (base.className === 'ContainerImage' && key === 'repository')
        return {
          ...node,
          widget: 'image' as const,
          tagField: 'tag' in (schema.properties ?? {}) ? 'tag' : undefined,
        };
      return node;
    });
    const wraps =
      wrapper && children.filter((c) => !isHidden(c)).length === 1 ? wrapper.field : undefined;
    return { ...base, kind: 'container', children, wraps };
  }
  if (schema.type === 'array') {
    return {
      ...base,
      kind: 'array',
      item: buildNode(schema.items ?? { type: 'string' }, '', true, configurable),
      widget: widgetOf(schema),
    };
  }
  const type = fieldType(schema) ?? 'string';
  const titles = schema['x-enum-titles'] ?? [];
  return {
    ...base,
    kind: 'field',
    type,
    widget: widgetOf(schema),
    options: (schema.enum ?? []).map((v, i) => ({
      value: String(v),
      label: titles[i] ?? String(v),
    })),
  };
}

/** Constants and pydantic's `__type__` marker are set by the form, never shown. */
export const isHidden = (n: FormNode) =>
  n.name === '__type__' || (n.kind === 'field' && n.type === 'const');

/**
 * A checkbox for "this or nothing" with a plain value, a collapsible section for
 * "this group or nothing", a select otherwise.
 */
function anyOfMode(options: FormNode[]): AnyOfMode {
  const nonNull = options.filter((o) => o.kind !== 'null');
  if (options.length !== 2 || nonNull.length !== 1) return 'select';
  // A class around one value (an optional secret, files path) behaves like that plain value.
  return nonNull[0].kind === 'container' && !nonNull[0].wraps ? 'collapsible' : 'checkbox';
}

/** The label of an anyOf option in a select. */
export const optionLabel = (o: FormNode) =>
  o.kind === 'null'
    ? FORM_TEXTS.nullOption
    : (o.schema['x-title'] ?? o.schema.title ?? o.schema.type ?? FORM_TEXTS.anyOfPlaceholder);

/** Dotted path of a child: `http.port`, `env.0.name`. */
export const childPath = (parent: string, key: string | number) =>
  parent ? `${parent}.${key}` : String(key);

/**
 * An input that may take another app's output (`x-meta-type: integration`, on the field or on
 * the class of its non-null option), and the class name used to look up candidates.
 */
export function integrationOf(node: FormNode): { typeName: string } | null {
  if (node.metaType === 'integration') return { typeName: node.className ?? node.name };
  if (node.kind !== 'anyOf') return null;
  const o = node.options.find((x) => x.metaType === 'integration');
  return o ? { typeName: o.className ?? node.name } : null;
}

/** A nested integration field that is required marks its group's label required. */
export function hasRequiredIntegration(node: FormNode): boolean {
  if (node.kind !== 'container') return false;
  return node.children.some(
    (c) => (c.required && integrationOf(c) !== null) || hasRequiredIntegration(c),
  );
}
