import { Modal, Stack, Text } from '@mantine/core';
import type { BakeWire } from '@orrery/contract';
import { DialogActions } from '../../../ui/DialogActions';
import { withOutcome } from '../../../ui/notify';
import { useKillBake } from '../api';
import { bakeLabel } from '../rules';
import { BAKE_TEXTS, FLOW_TEXTS } from '../texts';

/** Killing stops the bake's running tasks for good, so it is confirmed first. */
export function KillBakeDialog(props: {
  projectId: string;
  bake: BakeWire | null;
  onClose(): void;
}) {
  const kill = useKillBake(props.projectId);
  const { bake } = props;
  const confirm = async () => {
    const attempt = bake?.last_attempt;
    if (!attempt) return;
    const done = await withOutcome(
      () => kill.mutateAsync(attempt),
      BAKE_TEXTS.killed,
      FLOW_TEXTS.loadFailed,
    );
    if (done) props.onClose();
  };
  return (
    <Modal opened={!!bake} onClose={props.onClose} title={BAKE_TEXTS.killTitle} centered>
      <Stack>
        <Text>{bake ? BAKE_TEXTS.killText(bakeLabel(bake)) : null}</Text>
        <DialogActions
          cancelLabel={FLOW_TEXTS.cancel}
          onCancel={props.onClose}
          confirmLabel={BAKE_TEXTS.kill}
          color="red"
          onClick={confirm}
          loading={kill.isPending}
        />
      </Stack>
    </Modal>
  );
}
