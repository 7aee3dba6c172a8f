import type { FormEvent } from 'react';
import { useState } from 'react';
import { Alert, Input, Modal, SegmentedControl, Select, Stack, TextInput } from '@mantine/core';
import { useCreateBucketCredentials, type Bucket, type BucketPlace } from '../../api/buckets';
import { fieldErrorOf, messageOf } from '../../ui/errors';
import { notifySuccess } from '../../ui/notify';
import { bucketLabel } from './format';
import { BUCKET_TEXTS } from './texts';
import { DialogActions } from '../../ui/DialogActions';

const T = BUCKET_TEXTS.credentialsForm;
type Access = 'read-only' | 'read-write';

/** workloads §5: a name of at least 1 character, read-only or read-write, for one bucket. */
export function CreateCredentialsDialog(props: {
  place: BucketPlace;
  buckets: Bucket[];
  /** The bucket the dialog was opened for; it is preselected. Null keeps the dialog closed. */
  bucket: Bucket | null;
  onClose(): void;
}) {
  return (
    <Modal opened={!!props.bucket} onClose={props.onClose} title={T.title} size={480} centered>
      {props.bucket && (
        <CredentialsForm
          key={props.bucket.id}
          place={props.place}
          buckets={props.buckets}
          bucket={props.bucket}
          onClose={props.onClose}
        />
      )}
    </Modal>
  );
}

function CredentialsForm(props: {
  place: BucketPlace;
  buckets: Bucket[];
  bucket: Bucket;
  onClose(): void;
}) {
  const [name, setName] = useState('');
  const [bucketId, setBucketId] = useState(props.bucket.id);
  const [access, setAccess] = useState<Access>('read-only');
  const [submitted, setSubmitted] = useState(false);
  const [serverNameError, setServerNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateBucketCredentials(props.place);
  const trimmed = name.trim();
  const nameError = (submitted && !trimmed ? T.nameRequired : null) ?? serverNameError;
  const choices = props.buckets.some((b) => b.id === props.bucket.id)
    ? props.buckets
    : [props.bucket, ...props.buckets];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    if (!trimmed) return;
    try {
      const created = await create.mutateAsync({
        name: trimmed,
        bucketIds: [bucketId],
        readOnly: access === 'read-only',
      });
      notifySuccess(T.created(created.name ?? trimmed));
      props.onClose();
    } catch (error) {
      const onName = fieldErrorOf(error, 'name');
      // A name taken goes to the name; anything else (like the 422 about shared keys) is shown
      // as the server wrote it.
      if (onName) setServerNameError(onName);
      else setFailure(messageOf(error, BUCKET_TEXTS.loadFailed));
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={T.name}
          required
          data-autofocus
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setServerNameError(null);
          }}
          error={nameError}
        />
        <Select
          label={T.bucket}
          data={choices.map((b) => ({ value: b.id, label: bucketLabel(b) }))}
          value={bucketId}
          onChange={(id) => {
            if (id) setBucketId(id);
            setFailure(null);
          }}
          allowDeselect={false}
        />
        <Input.Wrapper label={T.access}>
          <SegmentedControl
            fullWidth
            value={access}
            onChange={(v) => setAccess(v as Access)}
            data={[
              { value: 'read-only', label: T.readOnly },
              { value: 'read-write', label: T.readWrite },
            ]}
          />
        </Input.Wrapper>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
      </Stack>
      <DialogActions
        cancelLabel={BUCKET_TEXTS.cancel}
        onCancel={props.onClose}
        confirmLabel={T.submit}
        type="submit"
        loading={create.isPending}
        mt="lg"
      />
    </form>
  );
}
