import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Checkbox,
  Collapse,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useFormContext } from './environment';
import { ContainerView, COLLAPSE_MS, NodeView } from './NodeView';
import { hasErrorUnder } from './rules';
import { optionLabel, type AnyOfNode, type FormNode } from './schema';
import { FORM_TEXTS } from './texts';
import { activeOption, getIn, resetValue } from './values';

/**
 * An any-of (docs/forms.md): a checkbox (this value or nothing), a collapsible section (this group or
 * nothing; opens by itself on an error inside), or a select of the options. Switching resets the
 * value to the new option's empty value.
 */
export function AnyOfView({ node, path }: { node: AnyOfNode; path: string }) {
  const { form } = useFormContext();
  const [folded, setFolded] = useState(false);
  const value = getIn(form.values, path);
  const active = activeOption(node.options, value);
  const chosen = active >= 0 ? node.options[active] : null;
  const [confirming, setConfirming] = useState<FormNode | null>(null);
  // A public app (Apolo's NoAuth) is chosen only after a warning.
  const switchTo = (o: FormNode) =>
    o.className === 'NoAuth' ? setConfirming(o) : form.setValue(path, resetValue(o));

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
        <ConfirmDialog
          opened={confirming !== null}
          title={FORM_TEXTS.noAuthTitle}
          message={FORM_TEXTS.noAuthWarning}
          confirmLabel={FORM_TEXTS.noAuthConfirm}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            form.setValue(path, resetValue(confirming!));
            setConfirming(null);
          }}
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

function ConfirmDialog(props: {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  onCancel(): void;
  onConfirm(): void;
}) {
  return (
    <Modal opened={props.opened} onClose={props.onCancel} title={props.title} size={520}>
      <Stack>
        <Alert color="yellow" variant="light">
          {props.message}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            {FORM_TEXTS.cancel}
          </Button>
          <Button color="red" onClick={props.onConfirm}>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
