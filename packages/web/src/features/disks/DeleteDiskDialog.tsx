import type { ProjectPlace } from '@orrery/contract';
import { useDeleteDisk, type Disk } from '../../api/disks';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { diskLabel } from './format';
import { DISK_TEXTS } from './texts';

/** Deleting loses the data on the disk, so it is always confirmed. */
export function DeleteDiskDialog(props: {
  place: ProjectPlace;
  disk: Disk | null;
  onClose(): void;
  onDeleted?(disk: Disk): void;
}) {
  const remove = useDeleteDisk(props.place);
  const { disk } = props;
  return (
    <ConfirmDialog
      opened={!!disk}
      title={DISK_TEXTS.confirmTitle}
      text={disk ? DISK_TEXTS.confirmText(diskLabel(disk)) : null}
      cancelLabel={DISK_TEXTS.cancel}
      confirmLabel={DISK_TEXTS.delete}
      pending={remove.isPending}
      onConfirm={() => remove.mutateAsync(disk!.id)}
      success={disk ? DISK_TEXTS.deleted(diskLabel(disk)) : ''}
      failure={DISK_TEXTS.loadFailed}
      onDone={() => disk && props.onDeleted?.(disk)}
      onClose={props.onClose}
    />
  );
}
