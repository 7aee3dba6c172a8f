import { Alert, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconClockPause, IconFolder } from '@tabler/icons-react';
import type { AppInstance } from '../../../api/apps';
import { formatCredits } from '../../billing/credits';
import { formatDuration } from '../rules';
import { APPS_TEXTS } from '../texts';
import { useNow } from './useNow';

const T = APPS_TEXTS.details;
const STARTING = new Set(['queued', 'progressing']);

/**
 * What the instance is doing while it starts (waiting for capacity, starting, waiting for HTTP)
 * and for how long, instead of a silent wait; shown until it is healthy, and not once its job has
 * ended (`jobEnded`): the instance's state follows a moment later, the job's end is what is true.
 */
export function StartupStep({ app, jobEnded = false }: { app: AppInstance; jobEnded?: boolean }) {
  const step = app.startupStep;
  const show = !!step && STARTING.has(app.state) && !jobEnded;
  const now = useNow(show);
  if (!show) return null;
  const since = app.startupStepSince ?? app.createdAt;
  return (
    <Alert color="blue" icon={<Loader size="xs" />} role="status" aria-label={T.startup[step]}>
      <Group gap="xs">
        <Text fw={600} size="sm">
          {T.startup[step]}
        </Text>
        <Text size="sm" c="dimmed">
          {T.startup.elapsed(formatDuration(now - Date.parse(since)))}
        </Text>
      </Group>
    </Alert>
  );
}

/** Why an errored or degraded instance is so, as its last event says. */
export function StateProblem({ app }: { app: AppInstance }) {
  if (!app.stateMessage || (app.state !== 'errored' && app.state !== 'degraded')) return null;
  const errored = app.state === 'errored';
  return (
    <Alert
      color={errored ? 'red' : 'yellow'}
      icon={<IconAlertTriangle size={18} />}
      title={errored ? T.problem.errored : T.problem.degraded}
      role="alert"
    >
      <Text size="sm" style={{ wordBreak: 'break-word' }}>
        {app.stateMessage}
      </Text>
    </Alert>
  );
}

/** The idle-shutdown countdown and what persists, when the instance has them. */
export function IdleShutdown({ app }: { app: AppInstance }) {
  const at = app.idleShutdownAt ? Date.parse(app.idleShutdownAt) : null;
  const now = useNow(at !== null);
  const hasIdle = app.idleTimeoutMinutes !== undefined && app.idleTimeoutMinutes !== null;
  if (!hasIdle && !app.persistentHome) return null;
  return (
    <Stack gap={4}>
      {hasIdle && (
        <Group gap="xs">
          <IconClockPause size={16} />
          <Text size="sm" fw={600}>
            {T.idle.title}:
          </Text>
          <Text size="sm" aria-label={T.idle.title}>
            {app.idleTimeoutMinutes === 0
              ? T.idle.off
              : at !== null
                ? T.idle.in(formatDuration(at - now))
                : T.idle.in(formatDuration((app.idleTimeoutMinutes ?? 0) * 60_000))}
          </Text>
        </Group>
      )}
      {app.persistentHome && (
        <Group gap="xs">
          <IconFolder size={16} />
          <Text size="sm">{T.idle.persists(app.persistentHome)}</Text>
        </Group>
      )}
    </Stack>
  );
}

// Every decimal metering keeps (4): an app on a cheap preset costs less than 0.01 in a minute.
const credits = (v: string | number | null | undefined) =>
  v === null || v === undefined ? null : formatCredits(String(v));

export function Credits({ app }: { app: AppInstance }) {
  const perHour = credits(app.creditsPerHour);
  const soFar = credits(app.creditsSoFar);
  if (perHour === null && soFar === null) return null;
  return (
    <SimpleGrid cols={2} maw={360}>
      {perHour !== null && <Figure label={T.credits.perHour} value={perHour} />}
      {soFar !== null && <Figure label={T.credits.soFar} value={soFar} />}
    </SimpleGrid>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="xs">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Paper>
  );
}
