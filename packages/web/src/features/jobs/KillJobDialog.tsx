import { Modal, Stack, Text } from '@mantine/core';
import { useKillJob, type Job } from '../../api/jobs';
import { DialogActions } from '../../ui/DialogActions';
import { messageOf } from '../../ui/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { jobLabel } from './rules';
import { JOBS_TEXTS } from './texts';

/** Killing cannot be undone, so both the list and the job page confirm it first. */
export function KillJobDialog(props: { job: Job | null; onClose(): void }) {
  const kill = useKillJob();
  const { job } = props;
  const confirm = async () => {
    if (!job) return;
    try {
      await kill.mutateAsync(job.id);
      notifySuccess(JOBS_TEXTS.killed);
      props.onClose();
    } catch (error) {
      notifyError(messageOf(error, JOBS_TEXTS.loadFailed));
    }
  };
  return (
    <Modal opened={!!job} onClose={props.onClose} title={JOBS_TEXTS.killTitle} centered>
      <Stack>
        <Text>{job ? JOBS_TEXTS.killText(jobLabel(job)) : null}</Text>
        <DialogActions
          cancelLabel={JOBS_TEXTS.cancel}
          onCancel={props.onClose}
          confirmLabel={JOBS_TEXTS.kill}
          color="red"
          onClick={confirm}
          loading={kill.isPending}
        />
      </Stack>
    </Modal>
  );
}
