import { useState, type ReactNode } from 'react';
import { Badge, Button, Group, Input, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { IconApps, IconPlayerStop } from '@tabler/icons-react';
import { stateColor } from '../features/apps/rules';
import { useFormContext } from './environment';
import { useInstanceName, useIntegrationCandidates } from './integrations';
import type { FormNode } from './schema';
import { hasErrorUnder } from './rules';
import { FORM_MESSAGES, FORM_TEXTS as T } from './texts';
import {
  getIn,
  initialValue,
  isInstanceRef,
  resetValue,
  type FormValue,
  type InstanceRef,
} from './values';

type Mode = 'unset' | 'manual' | 'app';
const isUnset = (v: FormValue) => v === null || v === undefined || v === '';
const sameJson = (a: FormValue, b: FormValue) => JSON.stringify(a) === JSON.stringify(b);

/**
 * An input that may take another app's output: unset (Choose
 * app, or enter a value), a manual value (Cancel returns to unset), or an app chosen (Stop
 * returns to the manual value). The chosen output travels as an app-instance-ref.
 */
export function IntegrationField(props: {
  node: FormNode;
  path: string;
  typeName: string;
  /** For an optional input, the option a manual value takes. */
  manualOption?: FormNode;
  children: ReactNode;
}) {
  const { form, env } = useFormContext();
  const value = getIn(form.values, props.path);
  const [manual, setManual] = useState<FormValue>(() =>
    isInstanceRef(value) ? initialValue(props.node) : value,
  );
  const [editing, setEditing] = useState(false);
  const [choosing, setChoosing] = useState(false);
  // A required group starts as its empty shape, which counts as unset too.
  const untouched = isUnset(value) || sameJson(value, initialValue(props.node));
  const mode: Mode = isInstanceRef(value) ? 'app' : editing || !untouched ? 'manual' : 'unset';
  const set = (v: FormValue) => form.setValue(props.path, v);
  const chosenName = useInstanceName(env.place, isInstanceRef(value) ? value.instance_id : null);
  const nullable = props.manualOption !== undefined;

  const chooseApp = (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconApps size={14} />}
      disabled={!env.place}
      onClick={() => setChoosing(true)}
    >
      {T.chooseApp}
    </Button>
  );
  return (
    <Input.Wrapper
      label={props.node.title}
      description={props.node.description}
      withAsterisk={props.node.required}
      // Unset, the inputs are hidden: an error inside them shows on the field itself.
      error={
        mode !== 'manual' && hasErrorUnder(form.errors, props.path)
          ? (form.errors[props.path] ?? FORM_MESSAGES.required)
          : undefined
      }
    >
      <Stack gap="xs" mt={6}>
        {mode === 'app' && isInstanceRef(value) && (
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{T.integrationFrom(chosenName ?? value.instance_id, value.path)}</Text>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconPlayerStop size={14} />}
              onClick={() => {
                setEditing(true);
                set(manual);
              }}
            >
              {T.stopIntegration}
            </Button>
          </Group>
        )}
        {mode === 'unset' && (
          <Group gap="xs">
            {chooseApp}
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                setEditing(true);
                if (props.manualOption) set(resetValue(props.manualOption));
              }}
            >
              {T.enterManually}
            </Button>
          </Group>
        )}
        {mode === 'manual' && (
          <>
            {props.children}
            <Group gap="xs">
              {chooseApp}
              <Button
                size="xs"
                variant="default"
                onClick={() => {
                  setEditing(false);
                  setManual(value);
                  set(nullable ? null : initialValue(props.node));
                }}
              >
                {T.cancel}
              </Button>
            </Group>
          </>
        )}
      </Stack>
      {env.place && (
        <IntegrationsModal
          typeName={props.typeName}
          opened={choosing}
          onClose={() => setChoosing(false)}
          onChoose={(ref) => {
            if (mode === 'manual') setManual(value);
            setEditing(false);
            set(ref);
          }}
        />
      )}
    </Input.Wrapper>
  );
}

/** "App Integrations": the installed apps' outputs of the input's class. */
function IntegrationsModal(props: {
  typeName: string;
  opened: boolean;
  onClose(): void;
  onChoose(ref: InstanceRef): void;
}) {
  const { env } = useFormContext();
  const candidates = useIntegrationCandidates(env.place, props.typeName, props.opened);
  const items = candidates.data ?? [];
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={T.integrationsTitle} size={640}>
      {candidates.isPending ? (
        <Loader aria-label={T.integrationsTitle} />
      ) : items.length === 0 ? (
        <Stack gap={4} align="center" py="md">
          <Text fw={500}>{T.integrationsEmpty}</Text>
          <Text size="sm" c="dimmed">
            {T.integrationsEmptyHint}
          </Text>
        </Stack>
      ) : (
        <Table>
          <Table.Tbody>
            {items.map((c) => (
              <Table.Tr key={`${c.instanceId} ${c.path}`} aria-label={c.instanceName}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {c.instanceName}
                  </Text>
                  <Group gap={6}>
                    {c.templateTitle && (
                      <Text size="xs" c="dimmed">
                        {c.templateTitle}
                      </Text>
                    )}
                    {c.state && (
                      <Badge size="xs" variant="light" color={stateColor(c.state)}>
                        {c.state}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {c.path}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    onClick={() => {
                      props.onChoose({
                        type: 'app-instance-ref',
                        instance_id: c.instanceId,
                        path: c.path,
                      });
                      props.onClose();
                    }}
                  >
                    {T.integrationUse}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Modal>
  );
}
