import type { ProjectPlace } from '@orrery/contract';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { ApiError } from '../../api/client';
import { useCreateDisk } from '../../api/disks';
import { notifyError, notifySuccess } from '../../ui/notify';
import { messageOf } from '../../ui/errors';
import { diskNameOf, validateDiskForm, type DiskFormErrors, type DiskFormValues } from './rules';
import { DEFAULT_STORAGE_UNIT, DISK_TEXTS, STORAGE_UNITS, type StorageUnit } from './texts';
import { DialogActions } from '../../ui/DialogActions';
import { diskCreditsPerDay } from '../billing/cost/cost';

const T = DISK_TEXTS.form;
const EMPTY: DiskFormValues = { storage: '', unit: DEFAULT_STORAGE_UNIT, name: '', lifespan: '' };
/** Server field paths onto the form's fields (field errors go to their field). */
const FIELD_OF: Record<string, keyof DiskFormErrors> = {
  storage: 'storage',
  name: 'name',
  life_span: 'lifespan',
};

export function CreateDiskDialog(props: {
  place: ProjectPlace;
  /** The cluster's credits per GB-day, to say what the disk will cost; undefined: unknown. */
  pricePerGbDay?: string;
  opened: boolean;
  onClose(): void;
}) {
  const [values, setValues] = useState<DiskFormValues>(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<DiskFormErrors>({});
  const create = useCreateDisk(props.place);
  const { errors, request: valid } = validateDiskForm(values);
  const perDay =
    valid && props.pricePerGbDay !== undefined
      ? diskCreditsPerDay(valid.storage, props.pricePerGbDay)
      : null;
  const shown = submitted ? { ...errors, ...serverErrors } : serverErrors;

  const set = (key: keyof DiskFormValues) => (value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    // A server error stands until its field changes.
    setServerErrors(({ [key as keyof DiskFormErrors]: _changed, ...rest }) => rest);
  };
  const close = () => {
    setValues(EMPTY);
    setSubmitted(false);
    setServerErrors({});
    props.onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const { request } = validateDiskForm(values);
    if (!request) return;
    try {
      const disk = await create.mutateAsync(request);
      notifySuccess(T.created(disk.name ?? disk.id));
      close();
    } catch (error) {
      const mapped: DiskFormErrors = {};
      if (error instanceof ApiError) {
        for (const e of error.fieldErrors) {
          const field = FIELD_OF[e.path];
          if (field) mapped[field] ??= e.message;
        }
      }
      if (Object.keys(mapped).length > 0) setServerErrors(mapped);
      else notifyError(messageOf(error, DISK_TEXTS.loadFailed));
    }
  };

  const normalized = diskNameOf(values.name);
  return (
    <Modal opened={props.opened} onClose={close} title={T.title} size={520} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Group align="flex-start" grow>
            <TextInput
              label={T.storage}
              required
              data-autofocus
              inputMode="decimal"
              value={values.storage}
              onChange={(e) => set('storage')(e.currentTarget.value)}
              error={shown.storage}
              description={perDay === null ? undefined : T.costs(perDay)}
            />
            <Select
              label={T.unit}
              data={Object.keys(STORAGE_UNITS)}
              value={values.unit}
              onChange={(unit) => unit && set('unit')(unit as StorageUnit)}
              allowDeselect={false}
            />
          </Group>
          <TextInput
            label={T.name}
            value={values.name}
            onChange={(e) => set('name')(e.currentTarget.value)}
            error={shown.name}
            description={
              normalized && normalized !== values.name ? T.willBeCreatedAs(normalized) : T.nameHint
            }
          />
          <TextInput
            label={T.lifespan}
            placeholder="1d 2h 3m"
            value={values.lifespan}
            onChange={(e) => set('lifespan')(e.currentTarget.value)}
            error={shown.lifespan}
            description={T.lifespanHint}
          />
        </Stack>
        <DialogActions
          cancelLabel={DISK_TEXTS.cancel}
          onCancel={close}
          confirmLabel={T.submit}
          type="submit"
          loading={create.isPending}
          mt="lg"
        />
      </form>
    </Modal>
  );
}
