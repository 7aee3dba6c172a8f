import type { FlowProjectWire, ProjectPlace } from '@orrery/contract';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
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
  return (
    <ConfirmDialog
      opened={!!flow}
      title={FLOW_TEXTS.deleteTitle}
      text={flow ? FLOW_TEXTS.deleteText(flow.name) : null}
      cancelLabel={FLOW_TEXTS.cancel}
      confirmLabel={FLOW_TEXTS.delete}
      pending={remove.isPending}
      onConfirm={() => remove.mutateAsync(flow!.id)}
      success={flow ? FLOW_TEXTS.deleted(flow.name) : ''}
      failure={FLOW_TEXTS.loadFailed}
      onClose={props.onClose}
    />
  );
}
