import { useState } from 'react';
import {
  ActionIcon,
  Button,
  Checkbox,
  Collapse,
  Divider,
  Group,
  Input,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconPlus, IconTrash } from '@tabler/icons-react';
import { fromApoloEnv, toApoloEnv, type ApoloEnv, type EnvEntry } from './env';
import { useFormContext } from './environment';
import { hasErrorUnder } from './rules';
import { AnyOfView } from './AnyOfView';
import { IntegrationField } from './IntegrationField';
import { childPath, hasRequiredIntegration, integrationOf, isHidden } from './schema';
import type { ArrayNode, ContainerNode, FieldNode, FormNode } from './schema';
import { FORM_TEXTS } from './texts';
import { getIn, initialValue } from './values';
import type { VolumeEntry } from './volumes';
import { EnvEditor } from './widgets/EnvEditor';
import { ImageField } from './widgets/ImageField';
import { NumberField } from './widgets/NumberField';
import { FilesPathField, SecretKeyField } from './widgets/PickerFields';
import { PresetField } from './widgets/PresetField';
import { TagsField } from './widgets/TagsField';
import { VolumesEditor } from './widgets/VolumesEditor';

/** `a.b.c` → `a.b.name`. */
const siblingPath = (path: string, name: string) =>
  childPath(path.split('.').slice(0, -1).join('.'), name);

/** Collapse animation of sections. */
export const COLLAPSE_MS = 300;

/**
 * Renders one node of the schema tree at a dotted path of the form's value: read-only when the
 * form configures an installed app and the node is not configurable, with the integration
 * choice around an input that may take another app's output.
 */
export function NodeView({ node, path }: { node: FormNode; path: string }) {
  const { form } = useFormContext();
  const integration = integrationOf(node);
  let view = integration ? (
    <IntegrationView node={node} path={path} typeName={integration.typeName} />
  ) : (
    <PlainNodeView node={node} path={path} />
  );
  if (form.configure && !node.configurable && node.kind !== 'null')
    view = (
      <fieldset disabled style={READ_ONLY_FIELDSET} data-read-only>
        {view}
      </fieldset>
    );
  return view;
}

const READ_ONLY_FIELDSET = { border: 0, margin: 0, padding: 0, minWidth: 0 } as const;

function IntegrationView(props: { node: FormNode; path: string; typeName: string }) {
  const { node } = props;
  const nonNull = node.kind === 'anyOf' ? node.options.filter((o) => o.kind !== 'null') : [];
  const manualOption =
    node.kind === 'anyOf' && nonNull.length === 1 && nonNull.length < node.options.length
      ? nonNull[0]
      : undefined;
  const inner = manualOption ? { ...manualOption, title: node.title, required: true } : node;
  return (
    <IntegrationField {...props} manualOption={manualOption}>
      <PlainNodeView node={inner} path={props.path} />
    </IntegrationField>
  );
}

function PlainNodeView({ node, path }: { node: FormNode; path: string }) {
  switch (node.kind) {
    case 'null':
      return null;
    case 'field':
      return <FieldView node={node} path={path} />;
    case 'container':
      return <ContainerView node={node} path={path} framed />;
    case 'anyOf':
      return <AnyOfView node={node} path={path} />;
    case 'array':
      return <ArrayView node={node} path={path} />;
  }
}

/** Consecutive children with the same `x-group` form one section. */
function sectionsOf(children: FormNode[]) {
  const sections: { title?: string; nodes: FormNode[] }[] = [];
  for (const c of children) {
    const title = c.schema['x-group'];
    const last = sections.at(-1);
    if (last && last.title === title) last.nodes.push(c);
    else sections.push({ title, nodes: [c] });
  }
  return sections;
}

/** The fields of a group, in titled sections, advanced ones last and collapsed. */
export function ContainerView(props: { node: ContainerNode; path: string; framed?: boolean }) {
  const { node, path } = props;
  if (node.wraps) {
    // An Apolo class around one value is that value's input, under the class's label.
    const inner = node.children.find((c) => c.name === node.wraps)!;
    return (
      <NodeView
        node={{
          ...inner,
          title: node.title,
          description: node.description ?? inner.description,
          required: node.required || inner.required,
        }}
        path={childPath(path, inner.name)}
      />
    );
  }
  const visible = node.children.filter((c) => !isHidden(c));
  const regular = visible.filter((c) => !c.advanced);
  const advanced = visible.filter((c) => c.advanced);
  const children = (
    <Stack gap="md">
      {sectionsOf(regular).map((section, i) => (
        <Stack key={section.title ?? i} gap="md">
          {section.title && (
            <>
              {i > 0 && <Divider />}
              <Title order={4}>{section.title}</Title>
            </>
          )}
          {section.nodes.map((c) => (
            <NodeView key={c.name} node={c} path={childPath(path, c.name)} />
          ))}
        </Stack>
      ))}
      {advanced.length > 0 && <AdvancedSection nodes={advanced} path={path} />}
    </Stack>
  );
  if (!props.framed) return children;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={5}>
          {node.title}
          {(node.required || hasRequiredIntegration(node)) && (
            <Text span c="red" inherit aria-hidden>
              {' *'}
            </Text>
          )}
        </Title>
        {node.description && (
          <Text size="sm" c="dimmed">
            {node.description}
          </Text>
        )}
        {children}
      </Stack>
    </Paper>
  );
}

/** `x-is-advanced-field` inputs: collapsed until opened, or until one of them has an error. */
function AdvancedSection({ nodes, path }: { nodes: FormNode[]; path: string }) {
  const { form } = useFormContext();
  const [opened, setOpened] = useState(false);
  const withError = nodes.some((n) => hasErrorUnder(form.errors, childPath(path, n.name)));
  const open = opened || withError;
  return (
    <Stack gap="sm">
      <Group>
        <Button
          variant="subtle"
          size="compact-sm"
          aria-expanded={open}
          leftSection={open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
          onClick={() => setOpened(!open)}
        >
          {FORM_TEXTS.advanced}
        </Button>
      </Group>
      <Collapse expanded={open} transitionDuration={COLLAPSE_MS}>
        <Stack gap="md">
          {nodes.map((c) => (
            <NodeView key={c.name} node={c} path={childPath(path, c.name)} />
          ))}
        </Stack>
      </Collapse>
    </Stack>
  );
}

function FieldView({ node, path }: { node: FieldNode; path: string }) {
  const { form, env } = useFormContext();
  const value = getIn(form.values, path);
  const set = (v: unknown) => form.setValue(path, v);
  const common = {
    label: node.title,
    description: node.description,
    error: form.errors[path],
    required: node.required,
  };
  const text = typeof value === 'string' ? value : '';
  /** What every typed-or-chosen input (image, files path, secret) takes. */
  const picker = {
    ...common,
    placeholder: node.schema['x-placeholder'],
    place: env.place,
    value: text,
    onChange: set,
  };
  if (node.type === 'const') return null;
  if (node.type === 'boolean')
    return (
      <Checkbox
        label={node.title}
        description={node.description}
        error={common.error}
        checked={value === true}
        onChange={(e) => set(e.currentTarget.checked)}
      />
    );
  if (node.type === 'enum')
    return (
      <Select
        {...common}
        required={undefined}
        withAsterisk={node.required}
        data={node.options}
        value={value === undefined || value === null || value === '' ? null : String(value)}
        onChange={(v) => set(v ?? '')}
        allowDeselect={!node.required}
      />
    );
  if (node.type === 'integer' || node.type === 'number')
    return (
      <NumberField
        {...common}
        integer={node.type === 'integer'}
        value={typeof value === 'number' ? value : undefined}
        onChange={set}
      />
    );
  if (node.widget === 'image')
    return (
      <ImageField
        {...picker}
        onChoose={
          node.tagField
            ? (c) => {
                // Apolo's ContainerImage keeps the repository and the tag apart.
                const suffix = `:${c.tag}`;
                set(
                  c.reference.endsWith(suffix) ? c.reference.slice(0, -suffix.length) : c.reference,
                );
                form.setValue(siblingPath(path, node.tagField!), c.tag);
              }
            : undefined
        }
      />
    );
  if (node.widget === 'filesPath' || node.widget === 'secret') {
    const Picker = node.widget === 'filesPath' ? FilesPathField : SecretKeyField;
    return <Picker {...picker} />;
  }
  if (node.widget === 'preset')
    return (
      <PresetField
        {...common}
        presets={env.presets}
        subject={env.subject}
        value={text}
        onChange={set}
      />
    );
  const input = {
    ...common,
    required: undefined,
    withAsterisk: node.required,
    placeholder: node.schema['x-placeholder'],
    value: text,
    onChange: (e: { currentTarget: { value: string } }) => set(e.currentTarget.value),
  };
  return node.widget === 'textarea' ? (
    <Textarea {...input} minRows={2} />
  ) : (
    <TextInput {...input} />
  );
}

/**
 * An array's item as shown: by the item's own title ("Database user 1" in "Database users"),
 * else the array's, numbered; a group of fields has no asterisk of its own (its fields say
 * which they need), a single input keeps it.
 */
function itemNode(array: Extract<FormNode, { kind: 'array' }>, i: number): FormNode {
  const item = array.item;
  return {
    ...item,
    title: `${item.title || array.title} ${i + 1}`,
    required: item.kind === 'container' ? false : item.required,
  };
}

/** Whether an env item's value may be an `ApoloSecret` rather than only a string. */
const takesSecret = (item: FormNode) =>
  item.kind !== 'container' || item.children.find((c) => c.name === 'value')?.kind !== 'field';

/** Arrays: tags, env and volumes have their own inputs; other arrays list their items. */
function ArrayView({ node, path }: { node: ArrayNode; path: string }) {
  const { form, env } = useFormContext();
  const raw = getIn(form.values, path);
  const items: unknown[] = Array.isArray(raw) ? raw : [];
  const set = (v: unknown[]) => form.setValue(path, v);
  const common = { label: node.title, description: node.description };
  if (node.widget === 'tags')
    return (
      <TagsField
        {...common}
        required={node.required}
        error={form.errors[path]}
        value={items.map(String)}
        onChange={set}
      />
    );
  if (node.item.className === 'Env' || node.className === 'Env')
    // Apolo's Env items (or a list a template marks Env) take the same editor: a value, or a
    // secret from "Add Environment Secret" where the item's value may be one.
    return (
      <EnvEditor
        {...common}
        path={path}
        errors={form.errors}
        place={env.place}
        secrets={takesSecret(node.item)}
        value={fromApoloEnv(items as ApoloEnv[])}
        onChange={(entries) => set(toApoloEnv(entries))}
      />
    );
  if (node.widget === 'env')
    return (
      <EnvEditor
        {...common}
        path={path}
        errors={form.errors}
        place={env.place}
        value={items as EnvEntry[]}
        onChange={set}
      />
    );
  if (node.widget === 'volumes')
    return (
      <VolumesEditor
        {...common}
        path={path}
        errors={form.errors}
        place={env.place}
        value={items as VolumeEntry[]}
        onChange={set}
      />
    );
  return (
    <Input.Wrapper {...common} withAsterisk={node.required} error={form.errors[path]}>
      <Stack gap="xs" mt={6}>
        {items.map((_, i) => (
          <Group key={i} align="flex-start" wrap="nowrap" gap="xs">
            <div style={{ flex: 1 }}>
              <NodeView node={itemNode(node, i)} path={childPath(path, i)} />
            </div>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={`${FORM_TEXTS.remove} ${i + 1}`}
              onClick={() => set(items.filter((__, j) => j !== i))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => set([...items, initialValue(node.item)])}
          >
            {FORM_TEXTS.add}
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
