import { Modal, Stack, Text } from '@mantine/core';
import type { FlowProjectWire, ProjectPlace } from '@orrery/contract';
import { DialogActions } from '../../../ui/DialogActions';
import { withOutcome } from '../../../ui/notify';
import { useDeleteFlow } from '../api';
import { FLOW_TEXTS } from '../texts';

/** Deleting a flow drops its bakes' history, so it is always confirmed. */
export function DeleteFlowDialog(props: {
  place: ProjectPlace;
  flow: FlowProjectWire | null;
  onClose(): void;
}) {
  const remove = useDeleteFlow(props.place);
  const { flow } = props;
  const confirm = async () => {
    if (!flow) return;
    const done = await withOutcome(
      () => remove.mutateAsync(flow.id),
      FLOW_TEXTS.deleted(flow.name),
      FLOW_TEXTS.loadFailed,
    );
    if (done) props.onClose();
  };
  return (
    <Modal opened={!!flow} onClose={props.onClose} title={FLOW_TEXTS.deleteTitle} centered>
      <Stack>
        <Text>{flow ? FLOW_TEXTS.deleteText(flow.name) : null}</Text>
        <DialogActions
          cancelLabel={FLOW_TEXTS.cancel}
          onCancel={props.onClose}
          confirmLabel={FLOW_TEXTS.delete}
          color="red"
          onClick={confirm}
          loading={remove.isPending}
        />
      </Stack>
    </Modal>
  );
}
