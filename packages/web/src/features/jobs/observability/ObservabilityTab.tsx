import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { JOBS_TEXTS } from '../texts';
import type { LoadPoint, TopState } from '../job/useJobTop';
import { LoadCharts } from './LoadCharts';

const T = JOBS_TEXTS.observability;

/**
 * Observability: live charts from the `top` WebSocket, and the link to the
 * metrics dashboard of the last 15 minutes.
 */
export default function ObservabilityTab(props: {
  points: LoadPoint[];
  state: TopState;
  /** The job's metrics dashboard; an app's Observability tab has none. */
  metricsLink?: string;
}) {
  const { points, state } = props;
  const link = props.metricsLink && (
    <Anchor component={Link} to={props.metricsLink} size="sm">
      {T.metricsLink}
    </Anchor>
  );
  if (state === 'off')
    return (
      <Stack>
        <Alert color="gray">{T.notRunning}</Alert>
        {link}
      </Stack>
    );
  if (!points.length)
    return (
      <Stack>
        <Text c="dimmed" size="sm">
          {state === 'closed' ? T.closed : state === 'connecting' ? T.connecting : T.waiting}
        </Text>
        {link}
      </Stack>
    );
  return (
    <Stack>
      {state === 'closed' && <Alert color="gray">{T.closed}</Alert>}
      {link}
      <LoadCharts points={points} animationMs={0} />
    </Stack>
  );
}
