import type { ProjectPlace } from '@orrery/contract';
import { useDeleteBucket, type Bucket } from '../../api/buckets';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { bucketLabel } from './format';
import { BUCKET_TEXTS } from './texts';

/** Deleting a bucket Orrery made deletes its objects, so it is always confirmed. */
export function DeleteBucketDialog(props: {
  place: ProjectPlace;
  bucket: Bucket | null;
  onClose(): void;
  onDeleted?(bucket: Bucket): void;
}) {
  const remove = useDeleteBucket(props.place);
  const { bucket } = props;
  return (
    <ConfirmDialog
      opened={!!bucket}
      title={BUCKET_TEXTS.confirmTitle}
      text={bucket ? BUCKET_TEXTS.confirmText(bucketLabel(bucket), bucket.imported) : null}
      cancelLabel={BUCKET_TEXTS.cancel}
      confirmLabel={BUCKET_TEXTS.delete}
      pending={remove.isPending}
      onConfirm={() => remove.mutateAsync(bucket!.id)}
      success={bucket ? BUCKET_TEXTS.deleted(bucketLabel(bucket)) : ''}
      failure={BUCKET_TEXTS.loadFailed}
      onDone={() => bucket && props.onDeleted?.(bucket)}
      onClose={props.onClose}
    />
  );
}
