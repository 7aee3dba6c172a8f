import type { ProjectPlace } from '@orrery/contract';
import { Modal, Stack, Text } from '@mantine/core';
import { useDeleteDisk, type Disk } from '../../api/disks';
import { messageOf } from '../../ui/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { diskLabel } from './format';
import { DISK_TEXTS } from './texts';
import { DialogActions } from '../../ui/DialogActions';

/** Deleting loses the data on the disk, so it is always confirmed. */
export function DeleteDiskDialog(props: {
  place: ProjectPlace;
  disk: Disk | null;
  onClose(): void;
  onDeleted?(disk: Disk): void;
}) {
  const remove = useDeleteDisk(props.place);
  const { disk } = props;
  const confirm = async () => {
    if (!disk) return;
    try {
      await remove.mutateAsync(disk.id);
      notifySuccess(DISK_TEXTS.deleted(diskLabel(disk)));
      props.onDeleted?.(disk);
      props.onClose();
    } catch (error) {
      notifyError(messageOf(error, DISK_TEXTS.loadFailed));
    }
  };
  return (
    <Modal opened={!!disk} onClose={props.onClose} title={DISK_TEXTS.confirmTitle} centered>
      <Stack>
        <Text>{disk ? DISK_TEXTS.confirmText(diskLabel(disk)) : null}</Text>
        <DialogActions
          cancelLabel={DISK_TEXTS.cancel}
          onCancel={props.onClose}
          confirmLabel={DISK_TEXTS.delete}
          color="red"
          onClick={confirm}
          loading={remove.isPending}
        />
      </Stack>
    </Modal>
  );
}
