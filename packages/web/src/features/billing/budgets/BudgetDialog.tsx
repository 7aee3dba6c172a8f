import { type FormEvent, useState } from 'react';
import { Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import { DEFAULT_THRESHOLDS } from '@orrery/contract';
import { ApiError } from '../../../api/client';
import { DialogActions } from '../../../ui/DialogActions';
import { fieldErrorOf, messageOf } from '../../../ui/errors';
import { notifyError, notifySuccess } from '../../../ui/notify';
import { type Budget, useSaveBudget } from './api';
import { BUDGET_UI as T } from './texts';

/** "50, 90, 100" → [50, 90, 100]; null when it is not a list of whole numbers. */
export function parseThresholds(text: string): number[] | null {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (!parts.length || parts.some((p) => !/^\d+$/.test(p))) return null;
  return parts.map(Number);
}

/** The server's refusal of the list, or of one of its thresholds (`thresholds.N`). */
const thresholdsError = (e: unknown) =>
  e instanceof ApiError
    ? e.fieldErrors.find((f) => f.path.split('.')[0] === 'thresholds')?.message
    : undefined;

/** Sets or changes one budget; the server's checks (order, range) show on their field. */
export function BudgetDialog(props: {
  org: string;
  /** null: the organization's own budget. */
  project: string | null;
  subject: string;
  current?: Budget;
  opened: boolean;
  onClose(): void;
}) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={T.dialogTitle(props.subject)}
      centered
    >
      {props.opened && <BudgetForm {...props} />}
    </Modal>
  );
}

function BudgetForm({ org, project, current, onClose }: Parameters<typeof BudgetDialog>[0]) {
  const save = useSaveBudget(org);
  const [credits, setCredits] = useState<number | string>(current ? Number(current.credits) : '');
  const [thresholds, setThresholds] = useState(
    (current?.thresholds ?? DEFAULT_THRESHOLDS).join(', '),
  );
  const [errors, setErrors] = useState<{ credits?: string; thresholds?: string }>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const amount = typeof credits === 'number' ? credits : Number(credits);
    const list = parseThresholds(thresholds);
    const local = {
      credits: credits === '' || !(amount > 0) ? T.positive : undefined,
      thresholds: list ? undefined : T.thresholdsBad,
    };
    setErrors(local);
    if (local.credits || local.thresholds || !list) return;
    try {
      await save.mutateAsync({ project, credits: amount, thresholds: list });
      notifySuccess(T.saved);
      onClose();
    } catch (e) {
      const field = {
        credits: fieldErrorOf(e, 'credits') ?? undefined,
        thresholds: thresholdsError(e),
      };
      setErrors(field);
      if (!field.credits && !field.thresholds) notifyError(messageOf(e, T.saveFailed));
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <NumberInput
          label={T.credits}
          value={credits}
          onChange={setCredits}
          min={0}
          decimalScale={4}
          thousandSeparator=","
          error={errors.credits}
          data-autofocus
        />
        <TextInput
          label={T.thresholds}
          description={T.thresholdsHint}
          value={thresholds}
          onChange={(e) => setThresholds(e.currentTarget.value)}
          error={errors.thresholds}
        />
        <DialogActions
          cancelLabel={T.cancel}
          onCancel={onClose}
          confirmLabel={T.save}
          type="submit"
          loading={save.isPending}
        />
      </Stack>
    </form>
  );
}
