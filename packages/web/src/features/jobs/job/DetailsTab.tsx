import type { ReactNode } from 'react';
import { formatMemory } from '@orrery/contract';
import { credits, perHour } from '../../billing/cost/cost';
import { Anchor, Code, Stack, Text, Timeline, Title } from '@mantine/core';
import { DataTable } from '../../../ui/DataTable';
import type { Job } from '../../../api/jobs';
import { DetailsTable } from '../../../ui/DetailsTable';
import { formatDate } from '../../../ui/dates';
import { formatLifespan } from '../../../ui/lifespan';
import { JobStatusBadge } from '../JobStatusBadge';
import { STATUS_COLOR } from '../rules';
import { JOBS_TEXTS } from '../texts';

const T = JOBS_TEXTS.details;
const yesNo = (v: boolean) => (v ? T.yes : T.no);
const orNone = (v: ReactNode) => (v === undefined || v === null || v === '' ? T.none : v);
/**
 * A job's address as a link: opened in a browser, the job's host sends whoever is not signed in
 * there through the console's sign-in, as Open does.
 */
const urlOrNone = (url: string | undefined) =>
  url ? (
    <Anchor href={url} target="_blank" rel="noopener noreferrer" style={{ wordBreak: 'break-all' }}>
      {url}
    </Anchor>
  ) : (
    T.none
  );

function resourcesOf(job: Job) {
  const r = job.container.resources;
  const gpus = (['nvidia', 'amd', 'intel'] as const)
    .map((make) => {
      const count = r[`${make}Gpu`];
      const model = r[`${make}GpuModel`];
      return count ? `${count} × ${model ?? make} GPU` : null;
    })
    .filter(Boolean);
  return [`${r.cpu} CPU`, formatMemory(r.memory), ...gpus, r.shm ? 'shm' : null]
    .filter(Boolean)
    .join(', ');
}

/** Details: every field of the job, its container, volumes, env and history. */
export function DetailsTab({ job }: { job: Job }) {
  const c = job.container;
  const h = job.history;
  return (
    <Stack>
      <Section title={T.general}>
        <DetailsTable
          rows={[
            [T.id, <Code key="id">{job.id}</Code>],
            [T.name, orNone(job.name)],
            [T.owner, job.owner],
            [T.status, <JobStatusBadge key="s" status={job.status} />],
            [T.reason, orNone(h.reason)],
            [T.description, orNone(job.description)],
            [T.uri, job.uri],
            [T.project, `${job.clusterName} / ${job.orgName} / ${job.projectName}`],
            [T.preset, orNone(job.presetName)],
            [T.priority, job.priority],
            [T.restartPolicy, job.restartPolicy],
            [
              T.maxRunTime,
              job.maxRunTimeMinutes ? formatLifespan(job.maxRunTimeMinutes * 60) : T.none,
            ],
            [T.scheduleTimeout, job.scheduleTimeout ? T.seconds(job.scheduleTimeout) : T.none],
            [T.privileged, yesNo(job.privileged)],
            [T.passConfig, yesNo(job.passConfig)],
            [T.runtime, job.runtime],
            [T.created, formatDate(h.createdAt)],
            [T.started, h.startedAt ? formatDate(h.startedAt) : T.none],
            [T.finished, h.finishedAt ? formatDate(h.finishedAt) : T.none],
            [T.runTime, T.seconds(Math.round(h.runTimeSeconds))],
            [T.restarts, h.restarts],
            [T.exitCode, orNone(h.exitCode)],
            [T.price, perHour(job.priceCreditsPerHour)],
            [T.total, credits(job.totalPriceCredits)],
            [T.httpUrl, urlOrNone(job.httpUrl)],
            [T.httpUrlNamed, urlOrNone(job.httpUrlNamed)],
            [T.internalHostname, orNone(job.internalHostnameNamed ?? job.internalHostname)],
            [T.scheduler, yesNo(job.schedulerEnabled)],
            [T.preemptible, yesNo(job.preemptibleNode)],
            [T.energySchedule, orNone(job.energyScheduleName)],
            [T.namespace, job.namespace],
          ]}
        />
      </Section>
      <Section title={T.container}>
        <DetailsTable
          rows={[
            [T.image, c.image],
            [T.entrypoint, c.entrypoint ? <Code>{c.entrypoint}</Code> : T.none],
            [T.command, c.command ? <Code>{c.command}</Code> : T.none],
            [T.workingDir, orNone(c.workingDir)],
            [T.resources, resourcesOf(job)],
            [
              T.http,
              c.http
                ? T.httpPort(c.http.port, c.http.requiresAuth, c.http.healthCheckPath)
                : T.none,
            ],
            [T.tty, yesNo(c.tty)],
          ]}
        />
      </Section>
      <Section title={T.volumes}>
        <VolumesTable job={job} />
      </Section>
      <Section title={T.env}>
        <EnvTable job={job} />
      </Section>
      <Section title={T.history}>
        <Timeline active={job.statuses.length - 1} bulletSize={14} lineWidth={2}>
          {job.statuses.map((s, i) => (
            <Timeline.Item
              key={`${s.transitionTime}-${i}`}
              color={STATUS_COLOR[s.status]}
              title={s.status}
            >
              <Text size="xs" c="dimmed">
                {formatDate(s.transitionTime)}
              </Text>
              {(s.reason || s.description) && (
                <Text size="sm">{[s.reason, s.description].filter(Boolean).join(': ')}</Text>
              )}
              {s.exitCode !== undefined && (
                <Text size="sm">
                  {T.exitCode}: {s.exitCode}
                </Text>
              )}
            </Timeline.Item>
          ))}
        </Timeline>
      </Section>
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={4}>{title}</Title>
      {children}
    </Stack>
  );
}

function VolumesTable({ job }: { job: Job }) {
  const c = job.container;
  const rows = [
    ...c.volumes.map((v) => [v.dstPath, v.srcStorageUri, v.readOnly] as const),
    ...c.diskVolumes.map((v) => [v.dstPath, v.srcDiskUri, v.readOnly] as const),
    // Secret volumes are always read-only.
    ...c.secretVolumes.map((v) => [v.dstPath, v.srcSecretUri, true] as const),
  ];
  if (!rows.length) return <Text c="dimmed">{T.noVolumes}</Text>;
  const C = T.volumeColumns;
  return (
    <DataTable
      table={{ withTableBorder: true }}
      rows={rows}
      rowKey={([path, source]) => `${path}-${source}`}
      columns={[
        { header: C.path, cell: ([path]) => path },
        {
          header: C.source,
          td: { style: { wordBreak: 'break-all' } },
          cell: ([, source]) => source,
        },
        { header: C.mode, cell: ([, , readOnly]) => (readOnly ? T.readOnly : T.readWrite) },
      ]}
    />
  );
}

/**
 * Plain variables with their values; secret variables only with the secret they come from: the
 * job JSON never carries a secret's value and neither does this page.
 */
function EnvTable({ job }: { job: Job }) {
  const env = Object.entries(job.container.env);
  const secrets = Object.entries(job.container.secretEnv);
  if (!env.length && !secrets.length) return <Text c="dimmed">{T.noEnv}</Text>;
  const C = T.envColumns;
  return (
    <DataTable
      table={{ withTableBorder: true }}
      rows={[
        ...env.map(([name, value]) => ({ key: name, name, value, secret: false })),
        ...secrets.map(([name, uri]) => ({
          key: `secret-${name}`,
          name,
          value: T.secretValue(uri),
          secret: true,
        })),
      ]}
      rowKey={(r) => r.key}
      columns={[
        { header: C.name, td: { ff: 'monospace' }, cell: (r) => r.name },
        {
          header: C.value,
          // A secret variable shows only where its value comes from, dimmed.
          td: (r) => (r.secret ? { c: 'dimmed' } : { style: { wordBreak: 'break-all' } }),
          cell: (r) => r.value,
        },
      ]}
    />
  );
}
