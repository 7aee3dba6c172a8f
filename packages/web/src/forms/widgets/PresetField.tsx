import { useEffect, useState } from 'react';
import { ActionIcon, Alert, Modal, Select, Stack, Table } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { formatMemory } from '@orrery/contract';
import type { Preset } from '../environment';
import { choosePreset } from '../presets';
import { FORM_TEXTS } from '../texts';

const GPU_VENDORS = ['nvidia', 'amd', 'intel'] as const;

/** `2 × A100 (80 GB)` for each vendor the preset has GPUs of. */
const gpusOf = (p: Preset) =>
  GPU_VENDORS.flatMap((v) => {
    const g = p[`${v}Gpu`];
    if (!g || g.count <= 0) return [];
    const memory = g.memory ? ` (${formatMemory(g.memory)})` : '';
    return [`${g.count} × ${g.model ?? v}${memory}`];
  });

/** `cpu-small · 1 CPU · 4 GB · 1 × A100 (80 GB) · 0.5 credits/h` */
export function presetLabel(p: Preset): string {
  const gpus = gpusOf(p);
  return [
    p.name,
    `${p.cpu} CPU`,
    formatMemory(p.memory),
    ...gpus,
    `${p.creditsPerHour} credits/h`,
  ].join(' · ');
}

/**
 * The resource preset of a job or app: a preset the cluster does not have is
 * replaced by the fallback one; without any suitable preset a warning says so.
 */
export function PresetField(props: {
  label: string;
  description?: string;
  required: boolean;
  error?: string;
  presets: Preset[];
  subject: string;
  value: string;
  onChange(value: string): void;
}) {
  const { presets, subject, value, onChange, required, ...rest } = props;
  const [details, setDetails] = useState(false);
  const chosen = presets.find((p) => p.name === value);
  const known = chosen !== undefined;
  const fallback = known ? null : choosePreset(presets, value);
  useEffect(() => {
    if (fallback && fallback.name !== value) onChange(fallback.name);
  }, [fallback, value, onChange]);
  return (
    <Stack gap={6}>
      <Select
        {...rest}
        withAsterisk={required}
        placeholder={FORM_TEXTS.presetPlaceholder}
        data={presets.map((p) => ({ value: p.name, label: presetLabel(p) }))}
        value={known ? value : null}
        onChange={(v) => onChange(v ?? '')}
        allowDeselect={false}
        searchable
        rightSectionPointerEvents="all"
        rightSection={
          chosen && (
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={FORM_TEXTS.presetDetailsButton}
              onClick={() => setDetails(true)}
            >
              <IconInfoCircle size={16} />
            </ActionIcon>
          )
        }
      />
      {chosen && (
        <Modal
          opened={details}
          onClose={() => setDetails(false)}
          title={FORM_TEXTS.presetDetails}
          size={520}
        >
          <PresetDetails preset={chosen} />
        </Modal>
      )}
      {!known && !fallback && (
        <Alert color="yellow" variant="light">
          {FORM_TEXTS.noPresetFound(subject)}
        </Alert>
      )}
    </Stack>
  );
}

/** The rows of the "Resource Preset details" modal. */
function PresetDetails({ preset: p }: { preset: Preset }) {
  const T = FORM_TEXTS.presetRows;
  const rows: [string, string][] = [
    [T.name, p.name],
    [T.cpu, String(p.cpu)],
    [T.memory, formatMemory(p.memory)],
    [T.gpu, gpusOf(p).join(', ') || T.none],
    [T.credits, p.creditsPerHour],
    [T.preemptible, p.isPreemptible ? T.yes : T.no],
    [T.scheduler, p.schedulerEnabled ? T.roundRobin : T.none],
  ];
  return (
    <Table>
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th>{k}</Table.Th>
            <Table.Td>{v}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
