import { Badge } from '@mantine/core';
import type { JobStatus } from '../../api/jobs';
import { STATUS_COLOR } from './rules';

/**
 * A job's status in its colour, never cut: a badge's label would shrink to an ellipsis in a table
 * column squeezed by its neighbours (long tags), so it keeps its whole width.
 */
export function JobStatusBadge({ status }: { status: JobStatus }) {
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" miw="max-content">
      {status}
    </Badge>
  );
}
