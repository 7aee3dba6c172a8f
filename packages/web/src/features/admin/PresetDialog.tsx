import type { FormEvent } from 'react';
import { useState } from 'react';
import { Checkbox, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import {
  GPU_VENDORS,
  MEMORY_UNITS,
  type GpuVendor,
  type MemoryUnit,
  type PoolCapacity,
} from '@orrery/contract';
import { ApiError } from '../../api/client';
import { useSavePreset, type Preset } from '../../api/admin';
import { DialogActions } from '../../ui/DialogActions';
import { messageOf } from '../../ui/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import {
  EMPTY_PRESET,
  gpuModels,
  presetFieldOf,
  presetValues,
  validatePreset,
  type PresetFormErrors,
  type PresetFormValues,
} from './presetForm';
import { ADMIN_UI } from './texts';

const P = ADMIN_UI.presets;

/** Create or edit a preset with every rule of the preset form (presetForm.ts), checked as the user types. */
export function PresetDialog(props: {
  cluster: string;
  pools: PoolCapacity[];
  preset: Preset | 'new' | null;
  onClose(): void;
}) {
  const editing = props.preset && props.preset !== 'new' ? props.preset : null;
  return (
    <Modal
      opened={!!props.preset}
      onClose={props.onClose}
      title={editing ? P.edit(editing.name) : P.create}
      size={560}
      centered
    >
      {props.preset && <PresetForm key={editing?.name ?? 'new'} {...props} editing={editing} />}
    </Modal>
  );
}

function PresetForm(props: {
  cluster: string;
  pools: PoolCapacity[];
  editing: Preset | null;
  onClose(): void;
}) {
  const [values, setValues] = useState<PresetFormValues>(
    props.editing ? presetValues(props.editing) : EMPTY_PRESET,
  );
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<PresetFormErrors>({});
  const save = useSavePreset(props.cluster);
  const { errors } = validatePreset(values, props.pools);
  const shown = touched ? { ...errors, ...serverErrors } : serverErrors;
  const set = <K extends keyof PresetFormValues>(key: K, value: PresetFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value, ...(key === 'gpuMake' ? { gpuModel: null } : {}) }));
    setServerErrors({});
    setTouched(true);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    const { body } = validatePreset(values, props.pools);
    if (!body) return;
    try {
      await save.mutateAsync({ original: props.editing?.name ?? null, body });
      notifySuccess(P.saved(String(body.name)));
      props.onClose();
    } catch (error) {
      const mapped: PresetFormErrors = {};
      if (error instanceof ApiError)
        for (const e of error.fieldErrors) {
          const field = presetFieldOf(e.path);
          if (field) mapped[field] ??= e.message;
        }
      if (Object.keys(mapped).length) setServerErrors(mapped);
      else notifyError(messageOf(error, ADMIN_UI.loadFailed));
    }
  };

  const models = gpuModels(props.pools, values.gpuMake);
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={P.name}
          required
          data-autofocus
          value={values.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={shown.name}
        />
        <Group grow align="flex-start">
          <TextInput
            label={P.cpu}
            inputMode="decimal"
            value={values.cpu}
            onChange={(e) => set('cpu', e.currentTarget.value)}
            error={shown.cpu}
          />
          <TextInput
            label={P.credits}
            inputMode="decimal"
            value={values.credits}
            onChange={(e) => set('credits', e.currentTarget.value)}
            error={shown.credits}
          />
        </Group>
        <Group grow align="flex-start">
          <TextInput
            label={P.memory}
            inputMode="decimal"
            value={values.memory}
            onChange={(e) => set('memory', e.currentTarget.value)}
            error={shown.memory}
          />
          <Select
            label={P.unit}
            data={Object.keys(MEMORY_UNITS)}
            value={values.unit}
            onChange={(u) => u && set('unit', u as MemoryUnit)}
            allowDeselect={false}
          />
        </Group>
        <Group grow align="flex-start">
          <Select
            label={P.gpuMake}
            data={[...GPU_VENDORS]}
            value={values.gpuMake}
            onChange={(m) => set('gpuMake', m as GpuVendor | null)}
            clearable
            placeholder={P.none}
          />
          <Select
            label={P.gpuModel}
            data={models}
            value={values.gpuModel}
            onChange={(m) => set('gpuModel', m)}
            disabled={!values.gpuMake}
            clearable
            error={shown.gpuModel}
          />
          <TextInput
            label={P.gpuCount}
            inputMode="numeric"
            value={values.gpuCount}
            onChange={(e) => set('gpuCount', e.currentTarget.value)}
            disabled={!values.gpuMake}
            error={shown.gpuCount}
          />
        </Group>
        <Checkbox
          label={P.preemptible}
          checked={values.preemptible}
          onChange={(e) => set('preemptible', e.currentTarget.checked)}
          error={shown.preemptible}
        />
        <Checkbox
          label={P.roundRobin}
          checked={values.roundRobin}
          onChange={(e) => set('roundRobin', e.currentTarget.checked)}
        />
      </Stack>
      <DialogActions
        cancelLabel={ADMIN_UI.cancel}
        onCancel={props.onClose}
        confirmLabel={ADMIN_UI.save}
        type="submit"
        loading={save.isPending}
        mt="lg"
      />
    </form>
  );
}
