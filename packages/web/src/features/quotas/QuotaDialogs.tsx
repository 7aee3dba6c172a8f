import { useState, type FormEvent } from 'react';
import { Stack, TextInput } from '@mantine/core';
import { JobsQuota, QUOTA_RESOURCES, type ProjectPlace } from '@orrery/contract';
import {
  type QuotaBody,
  useSetOrgQuota,
  useSetProjectQuota,
  type OrgQuota,
  type ProjectQuota,
} from '../../api/quotas';
import { DialogActions } from '../../ui/DialogActions';
import { fieldErrorOf, messageOf } from '../../ui/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { QuotaFields } from './QuotaParts';
import { quotaBody, valuesOf, type QuotaValues } from './quotaForm';
import { QUOTAS_UI } from './texts';

const U = QUOTAS_UI;

/** The quota inputs' state and what a submit sends, or the form's own errors. */
export function useQuotaValues(seen?: Parameters<typeof valuesOf>[0]) {
  const [values, setRaw] = useState<QuotaValues>(() => valuesOf(seen));
  const [errors, setErrors] = useState<Record<string, string>>({});
  // A field's error is the last submit's: once its text changes, it no longer stands.
  const setValues = (next: QuotaValues) => {
    const changed = (Object.keys(next) as (keyof QuotaValues)[]).flatMap((kind) =>
      QUOTA_RESOURCES.filter((r) => next[kind][r] !== values[kind][r]).map((r) =>
        kind === 'nominal' ? r : `borrowing_limit.${r}`,
      ),
    );
    setRaw(next);
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([p]) => !changed.includes(p))));
  };
  /** The body when every field passes, else null with the errors shown. */
  const body = (): QuotaBody | null => {
    const out = quotaBody(values);
    setErrors('errors' in out ? out.errors : {});
    return 'body' in out ? out.body : null;
  };
  return { values, setValues, errors, body };
}

/**
 * An organization's quota on a cluster as its form holds it: the jobs quota and the resource
 * quotas, and what a submit sends (null while a field does not pass, its error shown). As with
 * the resource quotas, the jobs quota's error is the last submit's until its text changes.
 */
export function useOrgQuotaValues(
  seen?: Parameters<typeof valuesOf>[0] & { totalRunningJobs: number | null },
) {
  const resources = useQuotaValues(seen);
  const [jobs, setRawJobs] = useState(seen?.totalRunningJobs?.toString() ?? '');
  const [jobsError, setJobsError] = useState<string | null>(null);
  const setJobs = (next: string) => {
    setRawJobs(next);
    if (next !== jobs) setJobsError(null);
  };
  const body = (): { jobs: string; quota: QuotaBody } | null => {
    const invalid = JobsQuota.safeParse(jobs).error?.issues[0]?.message ?? null;
    setJobsError(invalid);
    const quota = resources.body();
    return quota && !invalid ? { jobs, quota } : null;
  };
  return { resources, jobs, setJobs, jobsError, body };
}

/** The inputs of an organization's quota: its jobs quota above its resource quotas. */
export function OrgQuotaFields(props: {
  q: ReturnType<typeof useOrgQuotaValues>;
  serverError: unknown;
}) {
  const { q } = props;
  return (
    <>
      <TextInput
        label={U.jobs}
        description={U.emptyHint}
        inputMode="numeric"
        value={q.jobs}
        onChange={(e) => q.setJobs(e.currentTarget.value)}
        error={q.jobsError ?? fieldErrorOf(props.serverError, 'quota.total_running_jobs')}
      />
      <QuotaFields
        values={q.resources.values}
        onChange={q.resources.setValues}
        errors={q.resources.errors}
        serverError={props.serverError}
        serverPrefix="quota."
      />
    </>
  );
}

/** Runs a save; on failure the server's message is shown, and its field errors stay. */
async function saved(run: () => Promise<unknown>, success: string, onClose: () => void) {
  try {
    await run();
    notifySuccess(success);
    onClose();
  } catch (error) {
    notifyError(messageOf(error, U.loadFailed));
  }
}

/** A project's quota, a share of its organization's: its managers' and the cluster's edit it. */
export function ProjectQuotaForm(props: {
  place: ProjectPlace;
  quota: ProjectQuota;
  onClose(): void;
}) {
  const save = useSetProjectQuota(props.place);
  const q = useQuotaValues(props.quota);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = q.body();
    if (body)
      void saved(
        () => save.mutateAsync(body),
        U.projectUpdated(props.place.projectName),
        props.onClose,
      );
  };
  return (
    <form onSubmit={submit} noValidate>
      <QuotaFields
        values={q.values}
        onChange={q.setValues}
        errors={q.errors}
        serverError={save.error}
        serverPrefix=""
      />
      <DialogActions
        cancelLabel={U.cancel}
        onCancel={props.onClose}
        confirmLabel={U.save}
        type="submit"
        loading={save.isPending}
        mt="md"
      />
    </form>
  );
}

/** The organization's quota on a cluster: its jobs quota and resource quotas. */
export function OrgQuotaForm(props: { quota: OrgQuota; onClose(): void }) {
  const { clusterName, orgName } = props.quota;
  const save = useSetOrgQuota(clusterName, orgName);
  const q = useOrgQuotaValues(props.quota);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = q.body();
    if (body) void saved(() => save.mutateAsync(body), U.orgUpdated(orgName), props.onClose);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <OrgQuotaFields q={q} serverError={save.error} />
      </Stack>
      <DialogActions
        cancelLabel={U.cancel}
        onCancel={props.onClose}
        confirmLabel={U.save}
        type="submit"
        loading={save.isPending}
        mt="md"
      />
    </form>
  );
}
