import type { FormEvent } from 'react';
import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useBuyCredits, usePaymentsMode } from '../../../api/billing';
import { DialogActions } from '../../../ui/DialogActions';
import { fieldErrorOf, messageOf } from '../../../ui/errors';
import { notifyError } from '../../../ui/notify';
import '../styles';
import { BILLING_TEXTS } from '../texts';
import { CENTS_PER_CREDIT, DEFAULT_CREDITS, QUICK_CREDITS, returnUrls } from './return-urls';

const T = BILLING_TEXTS.buy;

/** "Credits purchase": an amount of credits, then the hosted checkout. */
export function BuyCreditsDialog(props: { org: string; opened: boolean; onClose(): void }) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={T.title} centered>
      {props.opened && <BuyForm org={props.org} onClose={props.onClose} />}
    </Modal>
  );
}

function BuyForm({ org, onClose }: { org: string; onClose(): void }) {
  const payments = usePaymentsMode();
  const buy = useBuyCredits();
  const [credits, setCredits] = useState<number | string>(DEFAULT_CREDITS);
  const [error, setError] = useState<string | null>(null);
  const amount = typeof credits === 'number' ? credits : Number(credits);
  const valid = credits !== '' && Number.isFinite(amount) && amount > 0;

  if (payments.isPending) return <Loader size="sm" />;
  if (payments.isError) return <Alert color="red">{messageOf(payments.error, T.failed)}</Alert>;
  if (payments.data.mode === 'off')
    return (
      <Stack>
        <Alert color="gray">{T.off}</Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {T.close}
          </Button>
        </Group>
      </Stack>
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return setError(T.positive);
    setError(null);
    try {
      const { checkoutUrl } = await buy.mutateAsync({
        orgName: org,
        amountInCents: Math.round(amount * CENTS_PER_CREDIT),
        ...returnUrls(window.location.href, amount),
      });
      window.location.assign(checkoutUrl);
    } catch (e) {
      const field = fieldErrorOf(e, 'amount_in_cents');
      if (field) setError(field);
      else notifyError(messageOf(e, T.failed));
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">{T.forOrg(org)}</Text>
        {payments.data.mode === 'test' && <Alert color="yellow">{T.test}</Alert>}
        <NumberInput
          label={T.credits}
          data-autofocus
          allowNegative={false}
          // 0 stays as typed, so the buyer reads why it cannot be bought.
          clampBehavior="none"
          thousandSeparator=","
          value={credits}
          onChange={(v) => {
            setCredits(v);
            setError(null);
          }}
          error={error}
          description={valid ? T.creditsHint(amount * CENTS_PER_CREDIT) : undefined}
        />
        <Group gap="xs">
          {QUICK_CREDITS.map((n) => (
            <Button
              key={n}
              size="xs"
              variant={amount === n ? 'filled' : 'default'}
              aria-pressed={amount === n}
              onClick={() => {
                setCredits(n);
                setError(null);
              }}
            >
              {n.toLocaleString('en-US')}
            </Button>
          ))}
        </Group>
      </Stack>
      <DialogActions
        cancelLabel={T.cancel}
        onCancel={onClose}
        confirmLabel={T.submit}
        type="submit"
        loading={buy.isPending}
        mt="lg"
      />
    </form>
  );
}
