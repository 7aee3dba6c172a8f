import { useEffect } from 'react';
import { Alert, Select, Stack } from '@mantine/core';
import { formatSize } from '../../ui/sizes';
import type { Preset } from '../environment';
import { choosePreset } from '../presets';
import { FORM_TEXTS } from '../texts';

const GPU_VENDORS = ['nvidia', 'amd', 'intel'] as const;

/** `cpu-small · 1 CPU · 4 GB · 1 × nvidia A100 · 0.5 credits/h` */
export function presetLabel(p: Preset): string {
  const gpus = GPU_VENDORS.flatMap((v) => {
    const g = p[`${v}Gpu`];
    return g && g.count > 0 ? [`${g.count} × ${g.model ?? v}`] : [];
  });
  return [
    p.name,
    `${p.cpu} CPU`,
    formatSize(p.memory),
    ...gpus,
    `${p.creditsPerHour} credits/h`,
  ].join(' · ');
}

/**
 * The resource preset of a job or app (workloads §4): a preset the cluster does not have is
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
  const known = presets.some((p) => p.name === value);
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
      />
      {!known && !fallback && (
        <Alert color="yellow" variant="light">
          {FORM_TEXTS.noPresetFound(subject)}
        </Alert>
      )}
    </Stack>
  );
}
