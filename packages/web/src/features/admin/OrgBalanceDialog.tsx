import type { FormEvent } from 'react';
import { useState } from 'react';
import { Modal, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { creditsOfField, OrgBalancePatch } from '@orrery/contract';
import { useSetOrgBalance, type AdminOrg } from '../../api/admin';
import { DialogActions } from '../../ui/DialogActions';
import { firstFieldError, messageOf } from '../../ui/errors';
import { useLocalIssues } from '../../ui/issues';
import { notifyError, notifySuccess } from '../../ui/notify';
import { ADMIN_UI } from './texts';

const B = ADMIN_UI.balance;

/** A system administrator sets an organization's credits, or adds to them. */
export function OrgBalanceDialog({ org, onClose }: { org: AdminOrg | null; onClose(): void }) {
  return (
    <Modal opened={!!org} onClose={onClose} title={org ? B.title(org.name) : ''} centered>
      {org && <BalanceForm key={org.name} org={org} onClose={onClose} />}
    </Modal>
  );
}

function BalanceForm({ org, onClose }: { org: AdminOrg; onClose(): void }) {
  const [mode, setMode] = useState<'set' | 'add'>('add');
  const [value, setValue] = useState('');
  const save = useSetOrgBalance();
  const field = mode === 'add' ? 'additional_credits' : 'credits';
  const check = useLocalIssues(
    OrgBalancePatch,
    mode === 'add' ? { additional_credits: value } : { credits: creditsOfField(value) },
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check.sendable()) return;
    try {
      await save.mutateAsync(
        mode === 'add'
          ? { org: org.name, additionalCredits: value.trim() }
          : { org: org.name, credits: creditsOfField(value) },
      );
      notifySuccess(B.updated(org.name));
      onClose();
    } catch (error) {
      if (!firstFieldError(error)) notifyError(messageOf(error, ADMIN_UI.loadFailed));
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <SegmentedControl
          value={mode}
          onChange={(v) => setMode(v as 'set' | 'add')}
          data={[
            { value: 'add', label: B.add },
            { value: 'set', label: B.set },
          ]}
        />
        <TextInput
          label={mode === 'add' ? B.additional : B.credits}
          description={
            mode === 'set' ? B.setHint : B.current(org.balance.credits ?? ADMIN_UI.orgs.unlimited)
          }
          inputMode="decimal"
          data-autofocus
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          error={check.shown(field) ?? firstFieldError(save.error)}
        />
      </Stack>
      <DialogActions
        cancelLabel={ADMIN_UI.cancel}
        onCancel={onClose}
        confirmLabel={ADMIN_UI.save}
        type="submit"
        loading={save.isPending}
        mt="lg"
      />
    </form>
  );
}
