import { useState } from 'react';
import { Alert, Badge, Button, Code, Group, Paper, Stack, Text } from '@mantine/core';
import type { Plan } from '@orrery/contract';
import { messageOf } from '../../ui/errors';
import { AnswerLink } from './Answer';
import { confirmPlan, type Outcome } from './api';
import { ASSISTANT_TEXTS } from './texts';

const T = ASSISTANT_TEXTS.plan;

type CardState =
  | { step: 'proposed' }
  | { step: 'confirming' }
  | { step: 'done'; outcome: Outcome }
  | { step: 'dismissed' }
  | { step: 'failed'; message: string };

const callText = (call: Plan['call']) =>
  `${call.method} ${call.path}${call.body === undefined ? '' : `\n${JSON.stringify(call.body, null, 2)}`}`;

/**
 * A change the assistant proposes (actions with consent): the exact call, where it acts
 * and what it costs. Nothing happens until Confirm, which sends the plan's one-time confirmation.
 */
export function PlanCard({ plan, now = Date.now }: { plan: Plan; now?: () => number }) {
  const [state, setState] = useState<CardState>({ step: 'proposed' });
  const expired = Date.parse(plan.expires_at) <= now();
  const open = state.step === 'proposed' || state.step === 'confirming' || state.step === 'failed';

  const confirm = async () => {
    setState({ step: 'confirming' });
    try {
      setState({ step: 'done', outcome: await confirmPlan(plan.id, plan.confirmation) });
    } catch (error) {
      setState({ step: 'failed', message: messageOf(error, T.failed) });
    }
  };

  return (
    <Paper withBorder p="sm" radius="md" role="group" aria-label={plan.title}>
      <Stack gap={6}>
        <Text size="sm" fw={600}>
          {plan.title}
        </Text>
        <Text size="xs" c="dimmed">
          {T.call}
        </Text>
        <Code block fz="xs">
          {callText(plan.call)}
        </Code>
        <Group gap={6}>
          <Text size="xs" c="dimmed">
            {T.context}
          </Text>
          <Badge variant="light" size="sm" tt="none">
            {plan.context.cluster} / {plan.context.org} / {plan.context.project}
          </Badge>
        </Group>
        <Text size="xs">
          {plan.credits_per_hour ? T.creditsPerHour(plan.credits_per_hour) : T.noCost}
        </Text>
        {state.step === 'done' && (
          <Alert color="green" p="xs">
            <Text size="sm">{state.outcome.message}</Text>
            {state.outcome.url && <AnswerLink href={state.outcome.url}>{T.open}</AnswerLink>}
          </Alert>
        )}
        {state.step === 'failed' && (
          <Alert color="red" p="xs" role="alert">
            <Text size="sm">{state.message}</Text>
          </Alert>
        )}
        {state.step === 'dismissed' && (
          <Text size="xs" c="dimmed">
            {T.dismissed}
          </Text>
        )}
        {open && (
          <Group gap="xs" justify="flex-end">
            <Button
              variant="default"
              size="xs"
              disabled={state.step === 'confirming'}
              onClick={() => setState({ step: 'dismissed' })}
            >
              {T.dismiss}
            </Button>
            <Button
              size="xs"
              color="red"
              loading={state.step === 'confirming'}
              disabled={expired}
              onClick={confirm}
            >
              {T.confirm}
            </Button>
          </Group>
        )}
        {open && expired && (
          <Text size="xs" c="dimmed">
            {T.expired}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
