import { createInterface } from 'node:readline';
import { formatMemory, type JobScheduling } from '@orrery/contract';
import type { Db } from '../../../db/client.js';
import { memberCredits } from './store.js';
import type { RuntimeDriver } from '../../../runtime/driver.js';
import type { Catalogue } from '../../apps/catalogue.js';
import { endpointOf } from '../../apps/outputs.js';
import { eventsOf, jobsOfRevision } from '../../apps/store.js';
import { loadClusters, type ClusterCatalog } from '../../clusters/store.js';
import { presetWire } from '../../clusters/wire.js';
import { visibleClusters } from '../../clusters/visible.js';
import { orgsOfUser } from '../../orgs/store.js';
import { unfinishedJobs, type JobRow } from '../../jobs/store.js';
import { containerOf } from '../../jobs/container.js';
import { jobUrl } from '../../jobs/ingress-host.js';
import type { Asker, Fact } from '../types.js';
import { consoleUrl, placeOfRow, readableApp, readableJob } from './resolve.js';
import { codeBlock, inlineText } from './markdown.js';

export interface FactDeps {
  db: Db;
  /** The app templates, for install plans. */
  catalogue: Catalogue;
  /** The server's clusters with their presets (clusters/store.ts). */
  clusterCatalog: ClusterCatalog;
  driver: Pick<RuntimeDriver, 'logs'>;
  publicUrl: string;
  /** Where jobs are served (ORRERY_INGRESS_DOMAIN), for apps' URLs. */
  ingressDomain: string;
  /** Why a waiting job waits and where it stands, as the scheduler last decided (jobs queue.ts). */
  scheduling?: (j: JobRow) => JobScheduling;
}

/** Where a job with an HTTP port is served (the jobs API's `http_url`), null without one. */
export const jobHttpUrl = (d: FactDeps, j: JobRow) =>
  containerOf(j).http ? jobUrl(d, j.id) : null;

/** A waiting job's place and reasons, in the scheduler's words (docs/scheduling.md). */
function queueText(d: FactDeps, j: JobRow) {
  const w = j.materialized ? null : d.scheduling?.(j);
  if (!w?.position) return '';
  return ` It is number ${w.position} in the queue of the jobs it competes with.${w.message ? ` The scheduler says: ${inlineText(w.message)}.` : ''}`;
}

/** "Why is my job pending?" without a name: each of the asker's waiting jobs, first in line first. */
export async function myWaitingJobsFact(d: FactDeps, asker: Asker): Promise<Fact> {
  const mine = (await unfinishedJobs(d.db))
    .filter((j) => j.ownerId === asker.principal.id && !j.materialized)
    .map((j) => ({ j, w: d.scheduling?.(j) }))
    .sort((a, b) => (a.w?.position ?? Infinity) - (b.w?.position ?? Infinity))
    .slice(0, 5);
  if (!mine.length) return { text: 'You have no job waiting to start.', citations: [] };
  const lines = mine.map(({ j, w }) => {
    const label = j.name ? `${j.name} (${j.id})` : j.id;
    const place = w?.position ? `number ${w.position} in the queue` : j.status;
    return `- Job ${label}, ${place}: ${inlineText(w?.message ?? j.statusDescription ?? 'waiting')}`;
  });
  return {
    text: `Your waiting jobs:\n${lines.join('\n')}`,
    citations: mine.map(({ j }) => ({
      title: `Job ${j.name ?? j.id}`,
      url: consoleUrl.job(j.id),
      snippet: j.statusDescription ?? j.status,
    })),
  };
}

/** The last lines of a log the assistant shows, and how much of a log it reads at most. */
export const LOG_TAIL_LINES = 20;
const LOG_READ_LIMIT = 16 * 2 ** 20;
const LOG_LINE_MAX = 300;

const credits = (c: string | null) => (c === null ? 'unlimited' : `${Number(c)} credits`);

/** Credits left: the organization's (what its members see) and the user's own in it. */
export async function creditsFact(d: FactDeps, asker: Asker): Promise<Fact> {
  const orgs = (await orgsOfUser(d.db, asker.principal.id)).filter(
    (o) => !asker.context.org || o.name === asker.context.org,
  );
  if (orgs.length === 0)
    return {
      text: 'You are not a member of any organization, so no credits apply to you.',
      citations: [],
    };
  const lines: string[] = [];
  for (const o of orgs) {
    const mine = await memberCredits(d.db, o.name, asker.principal.id);
    lines.push(
      `Organization ${o.name} has ${credits(o.credits)} left; your own limit in it: ${credits(mine)}.`,
    );
  }
  return {
    text: lines.join('\n'),
    citations: [{ title: 'Credits', url: consoleUrl.credits, snippet: lines[0]! }],
  };
}

/** The presets of the clusters the user works on, with their credits per hour. */
export async function presetsFact(d: FactDeps, asker: Asker, gpu = false): Promise<Fact> {
  const orgs = (await orgsOfUser(d.db, asker.principal.id)).map((o) => o.name);
  const visible = (await visibleClusters(d.db, asker.principal, orgs)).filter(
    (c) => !asker.context.cluster || c.name === asker.context.cluster,
  );
  const loaded = await loadClusters(
    d.clusterCatalog,
    visible.map((c) => c.name),
  );
  if (loaded.every((c) => c.presets.length === 0))
    return { text: 'No presets are available to you on any cluster.', citations: [] };
  const kinds = (w: ReturnType<typeof presetWire>) =>
    [w.nvidia_gpu, w.amd_gpu, w.intel_gpu].filter((g) => g !== undefined);
  const gpus = (w: ReturnType<typeof presetWire>) => kinds(w).reduce((n, g) => n + g.count, 0);
  const lines = loaded.flatMap((c) =>
    c.presets.map((p) => {
      const w = presetWire(p);
      const n = gpus(w);
      const model = kinds(w).find((g) => g.model)?.model;
      const gpu = n ? `, ${n} GPU${model ? ` (${model})` : ''}` : '';
      return `- ${c.cluster.name}/${w.name}: ${w.cpu} CPU, ${formatMemory(w.memory)} memory${gpu}: ${w.credits_per_hour} credits per hour`;
    }),
  );
  // Asked about GPUs: which presets have one, or that none does (nothing to pick on the form).
  const gpuLines = loaded.map((c) => {
    const named = c.presets.map(presetWire).filter((w) => gpus(w) > 0);
    return named.length
      ? `GPU presets of cluster ${c.cluster.name}: ${named.map((w) => w.name).join(', ')}.`
      : `Cluster ${c.cluster.name} has no GPU presets: a job there cannot use a GPU until its administrator adds one.`;
  });
  const text = `${gpu ? `${gpuLines.join('\n')}\n\n` : ''}Presets you can run jobs with:\n${lines.join('\n')}`;
  return { text, citations: [{ title: 'Presets', url: consoleUrl.presets, snippet: lines[0]! }] };
}

/** A job's status and, when pending or failed, the scheduler's reason in its own words. */
export async function jobStatusFact(d: FactDeps, asker: Asker, idOrName: string): Promise<Fact> {
  const j = await readableJob(d.db, asker, idOrName);
  const label = j.name ? `${j.name} (${j.id})` : j.id;
  // The reason may be the job's own words (its exit message): quoted, never markup.
  const why = inlineText([j.reason, j.statusDescription].filter(Boolean).join(': '));
  const url = jobHttpUrl(d, j);
  const served = !url
    ? ''
    : j.status === 'running'
      ? ` It is served at ${url}`
      : ` Its HTTP port is served at ${url} while it runs.`;
  const exit = j.status === 'failed' && j.exitCode !== null ? ` Exit code: ${j.exitCode}.` : '';
  const text = `Job ${label} is ${j.status}${why ? `. Reason: ${why}` : ''}.${exit}${served}${queueText(d, j)}`;
  return {
    text,
    citations: [{ title: `Job ${j.name ?? j.id}`, url: consoleUrl.job(j.id), snippet: text }],
    place: placeOfRow(j),
  };
}

/** The last lines of a job's log as the log API serves them to the same user, bounded. */
export async function jobLogsFact(d: FactDeps, asker: Asker, idOrName: string): Promise<Fact> {
  const j = await readableJob(d.db, asker, idOrName);
  const place = placeOfRow(j);
  const cite = (snippet: string) => [
    { title: `Log of job ${j.name ?? j.id}`, url: consoleUrl.jobLogs(j.id), snippet },
  ];
  if (j.logsRemoved)
    return { text: 'The logs of this job were removed', citations: cite('removed'), place };
  const { lines, cut } = await tail(
    await d.driver.logs(j.id, { follow: false, timestamps: false }),
  );
  if (lines.length === 0)
    return { text: `The log of job ${j.name ?? j.id} is empty.`, citations: cite('empty'), place };
  const note = cut ? ` (only its first ${LOG_READ_LIMIT / 2 ** 20} MiB were read)` : '';
  // The log is the job's, written by whoever ran it: a line of backticks cannot end its block.
  const text = `The last ${lines.length} lines of the log of job ${j.name ?? j.id}${note}:\n\n${codeBlock(lines.join('\n'))}`;
  return { text, citations: cite(lines.at(-1)!), place };
}

async function tail(stream: NodeJS.ReadableStream & { destroy(): void }) {
  const lines: string[] = [];
  let read = 0;
  let cut = false;
  try {
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      read += line.length + 1;
      lines.push(line.length > LOG_LINE_MAX ? `${line.slice(0, LOG_LINE_MAX)}…` : line);
      if (lines.length > LOG_TAIL_LINES) lines.shift();
      if (read > LOG_READ_LIMIT) {
        cut = true;
        break;
      }
    }
  } finally {
    stream.destroy();
  }
  return { lines, cut };
}

/** An installed app's state and, while it serves, its URL. */
export async function appStatusFact(d: FactDeps, asker: Asker, idOrName: string): Promise<Fact> {
  const row = await readableApp(d.db, asker, idOrName);
  const urls =
    row.state === 'uninstalled'
      ? []
      : (await jobsOfRevision(d.db, row.id, row.revision)).flatMap((j) => {
          const e = j.status === 'running' ? endpointOf(j, d) : null;
          return e
            ? [
                `${e.external.protocol}://${e.external.host}:${e.external.port}${e.external.basePath}`,
              ]
            : [];
        });
  const where = urls.length ? ` It is served at ${urls.join(', ')}` : '';
  const text = `App ${inlineText(row.displayName)} (${row.name}) is ${row.state}.${where}${await lastEventText(d, row)}`;
  return {
    text,
    citations: [{ title: `App ${row.displayName}`, url: consoleUrl.app(row.id), snippet: text }],
    place: placeOfRow(row),
  };
}

/** Why an app is not healthy: its last event (the app's Events tab), when it carries a reason. */
async function lastEventText(d: FactDeps, row: { id: string; state: string }) {
  if (row.state === 'healthy' || row.state === 'uninstalled') return '';
  const [last] = (await eventsOf(d.db, row.id, 1, 1)).rows;
  if (!last || (!last.reason && !last.message)) return '';
  const said = [last.reason, last.message].filter(Boolean).join(': ');
  return ` Its last event says: ${inlineText(said)}.`;
}
