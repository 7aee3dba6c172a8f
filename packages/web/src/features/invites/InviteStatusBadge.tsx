import { Badge } from '@mantine/core';
import type { InviteStatus } from '@orrery/contract';
import { STATUS_LABEL } from './texts';

export function InviteStatusBadge({ status }: { status: InviteStatus }) {
  const s = STATUS_LABEL[status];
  return (
    <Badge color={s.color} variant="light" miw="max-content">
      {s.label}
    </Badge>
  );
}
