import { useState, type ReactNode } from 'react';
import { Button, Stack } from '@mantine/core';
import {
  IconDeviceFloppy,
  IconExternalLink,
  IconPlayerStop,
  IconRefresh,
  IconShare,
} from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { openJobTab, useRerunJob, type Job } from '../../../api/jobs';
import { ALLOWED, useCan, withRule, type Can } from '../../../api/permissions';
import { WhyNot } from '../../../ui/WhyNot';
import { useContextLink } from '../../../app/context/platform-context';
import { messageOf } from '../../../ui/errors';
import { notifyError, notifySuccess } from '../../../ui/notify';
import { ShareDialog } from '../../files';
import { KillJobDialog } from '../KillJobDialog';
import { jobActions, jobLabel, openCan } from '../rules';
import { JOBS_TEXTS } from '../texts';
import { SaveImageDialog } from './SaveImageDialog';

type Dialog = 'kill' | 'save' | 'share' | null;

/** The job's actions with their state rules (e.g. Kill only while it runs); a disabled one says why. */
export function JobActions(props: {
  job: Job;
  username: string;
  monitoringUrl: string;
  registryHost: string;
  token: string | null;
}) {
  const { job } = props;
  const rules = jobActions(job, props.username);
  // Kill and Save image need write on the job, Share manage: a project reader, or someone the
  // job was shared with read-only, may look but not act.
  const [write, manage] = useCan([
    { uri: job.uri, action: 'write' },
    { uri: job.uri, action: 'manage' },
  ]);
  const [dialog, setDialog] = useState<Dialog>(null);
  const rerun = useRerunJob();
  const navigate = useNavigate();
  const link = useContextLink();

  const doRerun = async () => {
    try {
      const created = await rerun.mutateAsync(job);
      notifySuccess(JOBS_TEXTS.rerun(jobLabel(created)));
      navigate(link(`/jobs/${created.id}`));
    } catch (e) {
      notifyError(messageOf(e, JOBS_TEXTS.rerunFailed));
    }
  };

  return (
    <Stack gap="xs">
      <Action
        can={withRule(write, rules.kill)}
        label={JOBS_TEXTS.kill}
        icon={<IconPlayerStop size={16} />}
        color="red"
        onClick={() => setDialog('kill')}
      />
      <Action
        can={withRule(write, rules.saveImage)}
        label={JOBS_TEXTS.actions.saveImage}
        icon={<IconDeviceFloppy size={16} />}
        onClick={() => setDialog('save')}
      />
      <Action
        can={withRule(ALLOWED, rules.rerun)}
        label={JOBS_TEXTS.actions.rerun}
        icon={<IconRefresh size={16} />}
        onClick={doRerun}
        loading={rerun.isPending}
      />
      <Action
        can={withRule(openCan(job, write), rules.open)}
        label={JOBS_TEXTS.actions.open}
        icon={<IconExternalLink size={16} />}
        onClick={() =>
          openJobTab(job.id).catch((e) => notifyError(messageOf(e, JOBS_TEXTS.why.openFailed)))
        }
      />
      <Action
        can={manage}
        label={JOBS_TEXTS.actions.share}
        icon={<IconShare size={16} />}
        onClick={() => setDialog('share')}
      />
      <KillJobDialog job={dialog === 'kill' ? job : null} onClose={() => setDialog(null)} />
      {dialog === 'save' && (
        <SaveImageDialog
          job={job}
          monitoringUrl={props.monitoringUrl}
          registryHost={props.registryHost}
          token={props.token}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'share' && (
        <ShareDialog name={jobLabel(job)} uri={job.uri} onClose={() => setDialog(null)} />
      )}
    </Stack>
  );
}

function Action(props: {
  can: Can;
  label: string;
  icon: ReactNode;
  color?: string;
  onClick?: () => void;
  loading?: boolean;
}) {
  const common = {
    // The destructive action stands out; the others stay quiet.
    variant: props.color ? ('light' as const) : ('default' as const),
    justify: 'flex-start' as const,
    fullWidth: true,
    leftSection: props.icon,
    color: props.color,
    loading: props.loading,
  };
  return (
    <WhyNot can={props.can} block>
      <Button {...common} onClick={props.onClick}>
        {props.label}
      </Button>
    </WhyNot>
  );
}
