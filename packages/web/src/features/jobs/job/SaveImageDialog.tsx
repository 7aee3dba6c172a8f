import { useState, type FormEvent } from 'react';
import { Alert, Code, Modal, ScrollArea, Stack, TextInput } from '@mantine/core';
import { saveJobImage, type Job, type SaveProgress } from '../../../api/jobs';
import { DialogActions } from '../../../ui/DialogActions';
import { messageOf } from '../../../ui/errors';
import { notifyError, notifySuccess } from '../../../ui/notify';
import { JOBS_TEXTS, DIALOG_WIDTH } from '../texts';

const T = JOBS_TEXTS.save;
const DEFAULT_TAG = 'latest';

/** One readable line per NDJSON progress message, as `docker push` prints them. */
export function progressLine(p: SaveProgress): string {
  if (p.aux?.Digest) return `${p.aux.Tag ?? ''} ${p.aux.Digest}`.trim();
  const detail = p.progressDetail?.total
    ? ` ${Math.round(((p.progressDetail.current ?? 0) * 100) / p.progressDetail.total)}%`
    : '';
  return [p.id, p.status].filter(Boolean).join(': ') + detail;
}

/**
 * Save image: commits the running container and pushes it to the project's
 * registry as `REGISTRY_HOST/ORG/PROJECT/NAME:TAG`, showing the stream's progress.
 * Both image name and tag are required.
 */
export function SaveImageDialog(props: {
  job: Job;
  monitoringUrl: string;
  registryHost: string;
  token: string | null;
  onClose(): void;
}) {
  const { job } = props;
  const [name, setName] = useState(job.name ?? '');
  const [tag, setTag] = useState(DEFAULT_TAG);
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [lines, setLines] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!name.trim() || !tag.trim()) return;
    const image = `${props.registryHost}/${job.orgName}/${job.projectName}/${name.trim()}:${tag.trim()}`;
    setSaving(true);
    setError(null);
    setLines([]);
    try {
      await saveJobImage(props.monitoringUrl, job.id, image, {
        token: props.token,
        onProgress: (p) => setLines((prev) => [...prev, progressLine(p)]),
      });
      notifySuccess(JOBS_TEXTS.imageSaved);
      props.onClose();
    } catch (e) {
      const message = messageOf(e, JOBS_TEXTS.loadFailed);
      setError(message);
      notifyError(message);
    } finally {
      setSaving(false);
    }
  };

  const required = (value: string) => (touched && !value.trim() ? T.required : null);
  return (
    <Modal opened onClose={props.onClose} title={T.title} size={DIALOG_WIDTH} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Alert color="gray" variant="light">
            {T.intro}
          </Alert>
          <TextInput
            label={T.image}
            required
            data-autofocus
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={required(name)}
            disabled={saving}
          />
          <TextInput
            label={T.tag}
            required
            value={tag}
            onChange={(e) => setTag(e.currentTarget.value)}
            error={required(tag)}
            disabled={saving}
          />
          {lines.length > 0 && (
            <ScrollArea.Autosize mah={160} aria-label={T.progress}>
              <Code block>{lines.join('\n')}</Code>
            </ScrollArea.Autosize>
          )}
          {error && <Alert color="red">{error}</Alert>}
          <DialogActions
            cancelLabel={JOBS_TEXTS.cancel}
            onCancel={props.onClose}
            confirmLabel={T.submit}
            type="submit"
            loading={saving}
          />
        </Stack>
      </form>
    </Modal>
  );
}
