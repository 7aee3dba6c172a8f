import { Modal, Stack, Text } from '@mantine/core';
import { DialogActions } from '../../ui/DialogActions';
import { withOutcome } from '../../ui/notify';
import { PEOPLE_UI } from './texts';

/** Removing someone is always confirmed; one dialog for organization, cluster and project. */
export function ConfirmRemove(props: {
  name: string | null;
  where: string;
  pending: boolean;
  onRemove(name: string): Promise<unknown>;
  onClose(): void;
}) {
  const { name } = props;
  const confirm = async () => {
    if (
      name &&
      (await withOutcome(() => props.onRemove(name), PEOPLE_UI.removed(name), PEOPLE_UI.loadFailed))
    )
      props.onClose();
  };
  return (
    <Modal opened={!!name} onClose={props.onClose} title={PEOPLE_UI.removeUser} centered>
      <Stack>
        <Text>{name ? PEOPLE_UI.removeText(name, props.where) : null}</Text>
        <DialogActions
          cancelLabel={PEOPLE_UI.cancel}
          onCancel={props.onClose}
          confirmLabel={PEOPLE_UI.removeLabel}
          color="red"
          onClick={confirm}
          loading={props.pending}
        />
      </Stack>
    </Modal>
  );
}
