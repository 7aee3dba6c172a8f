import { Badge } from '@mantine/core';
import type { TaskStatus } from '@orrery/contract';
import { STATUS_COLOR } from './rules';

/** A bake's or task's status in its status colour (rules.ts). */
export function StatusBadge({ status }: { status: TaskStatus }) {
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" miw="max-content">
      {status}
    </Badge>
  );
}

export function Tags({ tags }: { tags: string[] }) {
  return (
    <>
      {tags.map((tag) => (
        <Badge key={tag} variant="outline" color="gray" tt="none" mr={4} mb={2}>
          {tag}
        </Badge>
      ))}
    </>
  );
}
