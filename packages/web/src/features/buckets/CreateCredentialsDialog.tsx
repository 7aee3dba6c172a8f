import type { ProjectPlace } from '@orrery/contract';
import type { FormEvent } from 'react';
import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Input,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useCreateBucketCredentials, type Bucket, type BucketCredentials } from '../../api/buckets';
import { useCan } from '../../api/permissions';
import { useProjectUri } from '../../api/project-can';
import { fieldErrorOf, messageOf } from '../../ui/errors';
import { notifySuccess } from '../../ui/notify';
import { CopyAction } from '../images/CopyAction';
import { bucketLabel } from './format';
import { BUCKET_TEXTS } from './texts';
import { DialogActions } from '../../ui/DialogActions';

const T = BUCKET_TEXTS.credentialsForm;
type Access = 'read-only' | 'read-write';

/**
 * A name of at least 1 character, read-only or read-write, for one bucket; then
 * the keys, once, with copy buttons. The server hands them out only in its answer to this
 * creation (docs/buckets.md): closing the dialog forgets them.
 */
export function CreateCredentialsDialog(props: {
  place: ProjectPlace;
  buckets: Bucket[];
  /** The bucket the dialog was opened for; it is preselected. Null keeps the dialog closed. */
  bucket: Bucket | null;
  onClose(): void;
}) {
  const [created, setCreated] = useState<BucketCredentials | null>(null);
  const close = () => {
    setCreated(null);
    props.onClose();
  };
  return (
    <Modal
      opened={!!props.bucket}
      onClose={close}
      title={T.title}
      size={created ? 560 : 480}
      centered
      // A click beside the dialog must not throw away keys that cannot be shown again.
      closeOnClickOutside={!created}
    >
      {created ? (
        <CreatedKeys created={created} buckets={props.buckets} onDone={close} />
      ) : (
        props.bucket && (
          <CredentialsForm
            key={props.bucket.id}
            place={props.place}
            buckets={props.buckets}
            bucket={props.bucket}
            onClose={close}
            onCreated={setCreated}
          />
        )
      )}
    </Modal>
  );
}

/** The keys of credentials just made, per bucket, each with a copy button. */
function CreatedKeys(props: { created: BucketCredentials; buckets: Bucket[]; onDone(): void }) {
  const labelOf = (key: string) => T.keyLabels[key] ?? key;
  return (
    <Stack>
      <Alert color="yellow">{T.shownOnce}</Alert>
      {props.created.credentials.map((c) => {
        const b = props.buckets.find((x) => x.id === c.bucketId);
        return (
          <Stack
            key={c.bucketId}
            gap="xs"
            role="group"
            aria-label={T.keysOf(b ? bucketLabel(b) : c.bucketId)}
          >
            {Object.entries(c.credentials).map(([key, value]) => (
              <TextInput
                key={key}
                label={labelOf(key)}
                value={value}
                readOnly
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                rightSection={<CopyAction value={value} label={T.copy(labelOf(key))} />}
              />
            ))}
          </Stack>
        );
      })}
      <Group justify="flex-end">
        <Button onClick={props.onDone}>{T.done}</Button>
      </Group>
    </Stack>
  );
}

function CredentialsForm(props: {
  place: ProjectPlace;
  buckets: Bucket[];
  bucket: Bucket;
  onClose(): void;
  onCreated(created: BucketCredentials): void;
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
  const chosen = choices.find((b) => b.id === bucketId) ?? props.bucket;
  // As the server checks: read-write keys, and an imported bucket's keys (its provider's, which
  // write whatever the mode says), need write on the bucket; read-only ones of Orrery's own do not.
  const uri = useProjectUri();
  const [write] = useCan([uri && { uri: uri('blob', bucketLabel(chosen)), action: 'write' }]);
  const refused = !write.allowed && !write.pending;
  const blocked = chosen.imported && !write.allowed;

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
      props.onCreated(created);
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
            // What may be asked for depends on the bucket: start again from read-only.
            setAccess('read-only');
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
              { value: 'read-write', label: T.readWrite, disabled: !write.allowed },
            ]}
          />
        </Input.Wrapper>
        {refused && (
          <Text size="sm" c="dimmed">
            {chosen.imported ? T.providerKeys : T.readWriteRefused} {write.reason}
          </Text>
        )}
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
        disabled={blocked}
        mt="lg"
      />
    </form>
  );
}
