import { useEffect, useRef, useState } from 'react';
import { Button, Loader, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { ingressTicket } from '../../../api/jobs';
import { ContextLink } from '../../../app/context/ContextLink';
import { EmptyState } from '../../../ui/EmptyState';
import { messageOf } from '../../../ui/errors';
import { JOBS_TEXTS } from '../texts';

const T = JOBS_TEXTS.openJob;

/**
 * `/open-job?key=…&path=…`: where a job's address (its HTTP URL, by id or by name) sends a
 * browser that is not signed in on the job's host. Signed in here, the console asks for a ticket
 * for that host, as Open does, and goes on to the path that was asked for; the server's refusal
 * (no such job, no permission) is shown instead.
 */
export default function OpenJobPage() {
  const [params] = useSearchParams();
  const key = params.get('key') ?? '';
  const path = params.get('path') ?? undefined;
  const [error, setError] = useState<string | null>(null);
  // One ticket per visit, also where effects run twice.
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    ingressTicket(key, path).then(
      ({ url }) => window.location.replace(url),
      (e: unknown) => setError(messageOf(e, T.failed)),
    );
  }, [key, path]);
  if (error) {
    return (
      <EmptyState
        icon={<IconExternalLink size={24} />}
        title={T.failed}
        description={error}
        action={
          <Button component={ContextLink} to="/jobs" variant="default">
            {JOBS_TEXTS.back}
          </Button>
        }
      />
    );
  }
  return (
    <Stack align="center" gap="sm" mt="xl" role="status">
      <Loader size="sm" />
      <Text>{T.opening(key)}</Text>
    </Stack>
  );
}
