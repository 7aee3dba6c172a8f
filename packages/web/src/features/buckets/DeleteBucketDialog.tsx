import type { ProjectPlace } from '@orrery/contract';
import { Modal, Stack, Text } from '@mantine/core';
import { useDeleteBucket, type Bucket } from '../../api/buckets';
import { messageOf } from '../../ui/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { bucketLabel } from './format';
import { BUCKET_TEXTS } from './texts';
import { DialogActions } from '../../ui/DialogActions';

/** Deleting a bucket Orrery made deletes its objects, so it is always confirmed. */
export function DeleteBucketDialog(props: {
  place: ProjectPlace;
  bucket: Bucket | null;
  onClose(): void;
  onDeleted?(bucket: Bucket): void;
}) {
  const remove = useDeleteBucket(props.place);
  const { bucket } = props;
  const confirm = async () => {
    if (!bucket) return;
    try {
      await remove.mutateAsync(bucket.id);
      notifySuccess(BUCKET_TEXTS.deleted(bucketLabel(bucket)));
      props.onDeleted?.(bucket);
      props.onClose();
    } catch (error) {
      notifyError(messageOf(error, BUCKET_TEXTS.loadFailed));
    }
  };
  return (
    <Modal opened={!!bucket} onClose={props.onClose} title={BUCKET_TEXTS.confirmTitle} centered>
      <Stack>
        <Text>
          {bucket ? BUCKET_TEXTS.confirmText(bucketLabel(bucket), bucket.imported) : null}
        </Text>
        <DialogActions
          cancelLabel={BUCKET_TEXTS.cancel}
          onCancel={props.onClose}
          confirmLabel={BUCKET_TEXTS.delete}
          color="red"
          onClick={confirm}
          loading={remove.isPending}
        />
      </Stack>
    </Modal>
  );
}
