import { Anchor, Paper, Text } from '@mantine/core';
import { ContextLink } from '../context/ContextLink';
import { LAYOUT_TEXTS } from './texts';

export function InviteBanner({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <Paper p="sm" bg="var(--mantine-color-blue-light)" radius="md">
      <Text size="sm">{LAYOUT_TEXTS.invites(count)}</Text>
      <Anchor component={ContextLink} to="/invites" size="sm">
        {LAYOUT_TEXTS.viewInvites}
      </Anchor>
    </Paper>
  );
}
