import { Badge } from '@mantine/core';
import type { JobStatus } from '../../api/jobs';
import { STATUS_COLOR } from './rules';

export function JobStatusBadge({ status }: { status: JobStatus }) {
  return (
    <Badge color={STATUS_COLOR[status]} variant="light">
      {status}
    </Badge>
  );
}
