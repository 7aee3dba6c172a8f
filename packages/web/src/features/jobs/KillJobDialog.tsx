import { useKillJob, type Job } from '../../api/jobs';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { jobLabel } from './rules';
import { JOBS_TEXTS } from './texts';

/** Killing cannot be undone, so both the list and the job page confirm it first. */
export function KillJobDialog(props: { job: Job | null; onClose(): void }) {
  const kill = useKillJob();
  const { job } = props;
  return (
    <ConfirmDialog
      opened={!!job}
      title={JOBS_TEXTS.killTitle}
      text={job ? JOBS_TEXTS.killText(jobLabel(job)) : null}
      cancelLabel={JOBS_TEXTS.cancel}
      confirmLabel={JOBS_TEXTS.kill}
      pending={kill.isPending}
      onConfirm={() => kill.mutateAsync(job!.id)}
      success={JOBS_TEXTS.killed}
      failure={JOBS_TEXTS.loadFailed}
      onClose={props.onClose}
    />
  );
}
