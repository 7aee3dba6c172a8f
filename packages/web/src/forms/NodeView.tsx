import { useState } from 'react';
import {
  ActionIcon,
  Box,
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
import type { EnvEntry } from './env';
import { useFormContext } from './environment';
import { hasErrorUnder } from './rules';
import { childPath, optionLabel } from './schema';
import type { AnyOfNode, ArrayNode, ContainerNode, FieldNode, FormNode } from './schema';
import { FORM_TEXTS } from './texts';
import { activeOption, getIn, initialValue, resetValue } from './values';
import type { VolumeEntry } from './volumes';
import { EnvEditor } from './widgets/EnvEditor';
import { ImageField } from './widgets/ImageField';
import { NumberField } from './widgets/NumberField';
import { PresetField } from './widgets/PresetField';
import { TagsField } from './widgets/TagsField';
import { VolumesEditor } from './widgets/VolumesEditor';

/** Collapse animation of workloads §9. */
const COLLAPSE_MS = 300;

/** Renders one node of the schema tree at a dotted path of the form's value. */
export function NodeView({ node, path }: { node: FormNode; path: string }) {
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

/** The fields of a group, in titled sections; nested groups get a frame and their title. */
export function ContainerView(props: { node: ContainerNode; path: string; framed?: boolean }) {
  const children = (
    <Stack gap="md">
      {sectionsOf(props.node.children).map((section, i) => (
        <Stack key={section.title ?? i} gap="md">
          {section.title && (
            <>
              {i > 0 && <Divider />}
              <Title order={4}>{section.title}</Title>
            </>
          )}
          {section.nodes.map((c) => (
            <NodeView key={c.name} node={c} path={childPath(props.path, c.name)} />
          ))}
        </Stack>
      ))}
    </Stack>
  );
  if (!props.framed) return children;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={5}>{props.node.title}</Title>
        {props.node.description && (
          <Text size="sm" c="dimmed">
            {props.node.description}
          </Text>
        )}
        {children}
      </Stack>
    </Paper>
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
        {...common}
        placeholder={node.schema['x-placeholder']}
        place={env.place}
        value={text}
        onChange={set}
      />
    );
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
 * workloads §4 any-of: a checkbox (this value or nothing), a collapsible section (this group or
 * nothing; opens by itself on an error inside), or a select of the options. Switching resets the
 * value to the new option's empty value.
 */
function AnyOfView({ node, path }: { node: AnyOfNode; path: string }) {
  const { form } = useFormContext();
  const [folded, setFolded] = useState(false);
  const value = getIn(form.values, path);
  const active = activeOption(node.options, value);
  const chosen = active >= 0 ? node.options[active] : null;
  const switchTo = (o: FormNode) => form.setValue(path, resetValue(o));

  if (node.mode === 'select')
    return (
      <Stack gap="sm">
        <Select
          label={node.title}
          description={node.description}
          withAsterisk={node.required}
          error={chosen ? undefined : form.errors[path]}
          placeholder={FORM_TEXTS.anyOfPlaceholder}
          data={node.options.map((o, i) => ({ value: String(i), label: optionLabel(o) }))}
          value={active >= 0 ? String(active) : null}
          allowDeselect={false}
          onChange={(i) => i !== null && switchTo(node.options[Number(i)])}
        />
        {chosen?.kind === 'container' ? (
          <ContainerView node={chosen} path={path} />
        ) : (
          chosen && <NodeView node={chosen} path={path} />
        )}
      </Stack>
    );

  // Checkbox and collapsible modes have exactly a null option and one other (schema.ts).
  const [none, other] =
    node.options[0].kind === 'null' ? node.options : [node.options[1], node.options[0]];
  // On is "not null": a number switched on starts empty (undefined), and still counts as on.
  const enabled = value !== null;
  const toggle = (
    <Checkbox
      label={node.title}
      description={node.description}
      checked={enabled}
      onChange={(e) => switchTo(e.currentTarget.checked ? other : none)}
    />
  );

  if (node.mode === 'checkbox')
    return (
      <Stack gap="xs">
        {toggle}
        {enabled && (
          <Box pl={32}>
            <NodeView node={other} path={path} />
          </Box>
        )}
      </Stack>
    );

  const open = enabled && (!folded || hasErrorUnder(form.errors, path));
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" wrap="nowrap">
        {toggle}
        {enabled && (
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={node.title}
            aria-expanded={open}
            onClick={() => setFolded(!folded)}
          >
            {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
          </ActionIcon>
        )}
      </Group>
      <Collapse expanded={open} transitionDuration={COLLAPSE_MS}>
        {enabled && other.kind === 'container' && (
          <Stack pt="md">
            <ContainerView node={other} path={path} />
          </Stack>
        )}
      </Collapse>
    </Paper>
  );
}

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
              <NodeView
                node={{ ...node.item, title: `${node.title} ${i + 1}` }}
                path={childPath(path, i)}
              />
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
