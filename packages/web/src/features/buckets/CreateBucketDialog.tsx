import type { FormEvent } from 'react';
import { useState } from 'react';
import { Alert, Modal, Stack, TextInput } from '@mantine/core';
import { BucketName, type ProjectPlace } from '@orrery/contract';
import { useCreateBucket } from '../../api/buckets';
import { fieldErrorOf, messageOf } from '../../ui/errors';
import { notifySuccess } from '../../ui/notify';
import { bucketLabel } from './format';
import { BUCKET_TEXTS } from './texts';
import { DialogActions } from '../../ui/DialogActions';

const T = BUCKET_TEXTS.form;

/** The server's rule (contract BucketName); an empty name lets the server use the ID. */
export function bucketNameError(name: string): string | null {
  if (!name) return null;
  const parsed = BucketName.safeParse(name);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
}

export function CreateBucketDialog(props: {
  place: ProjectPlace;
  opened: boolean;
  onClose(): void;
}) {
  const [name, setName] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverNameError, setServerNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateBucket(props.place);
  const trimmed = name.trim();
  const nameError = (submitted ? bucketNameError(trimmed) : null) ?? serverNameError;

  const close = () => {
    setName('');
    setSubmitted(false);
    setServerNameError(null);
    setFailure(null);
    props.onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    if (bucketNameError(trimmed)) return;
    try {
      const bucket = await create.mutateAsync(trimmed || null);
      notifySuccess(T.created(bucketLabel(bucket)));
      close();
    } catch (error) {
      const onName = fieldErrorOf(error, 'name');
      // Field errors go to their field; anything else, like a project gone in the
      // meantime, is the server's message above the buttons.
      if (onName) setServerNameError(onName);
      else setFailure(messageOf(error, BUCKET_TEXTS.loadFailed));
    }
  };

  return (
    <Modal opened={props.opened} onClose={close} title={T.title} size={480} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={T.name}
            data-autofocus
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setServerNameError(null);
            }}
            error={nameError}
            description={T.nameHint}
          />
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
        </Stack>
        <DialogActions
          cancelLabel={BUCKET_TEXTS.cancel}
          onCancel={close}
          confirmLabel={T.submit}
          type="submit"
          loading={create.isPending}
          mt="lg"
        />
      </form>
    </Modal>
  );
}
