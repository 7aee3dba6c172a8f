import { diskUri, projectUri, type JobStatus } from '@orrery/contract';
import { allows } from '../../../auth/permissions.js';
import { listInstances } from '../../apps/store.js';
import { disksIn } from '../../disks/store.js';
import { flowUri } from '../../flows/routes-common.js';
import { bakesOf, lastAttempts, placeOfProject, projectsIn } from '../../flows/store.js';
import { readableJobs } from '../../jobs/scope.js';
import { listJobs, type ProjectPlace } from '../../jobs/store.js';
import { notFound } from '../../../http/errors.js';
import type { Asker, Fact } from '../types.js';
import type { FactDeps } from './facts.js';
import { jobHttpUrl } from './facts.js';
import { inlineText } from './markdown.js';
import { consoleUrl, placeOf } from './resolve.js';

/**
 * The lists of the asker's own work (jobs, app instances, bakes, disks), read through the stores
 * the list routes use and narrowed by the asker's grants exactly as those routes narrow them.
 */

/** How many items a list answer names: the console's list has the rest. */
export const LIST_MAX = 10;

const where = (p: ProjectPlace) => `${p.org}/${p.project}`;

/** The project open in the console, else every project the asker's grants let them read. */
async function placesOf(d: FactDeps, asker: Asker): Promise<ProjectPlace[]> {
  const here = placeOf(asker);
  return here ? [here] : (await readableJobs(d.db, asker.grants)).places;
}

/** Jobs the asker owns and may read, newest first, in the given statuses (any when empty). */
export async function myJobsFact(d: FactDeps, asker: Asker, statuses: JobStatus[]): Promise<Fact> {
  const rows = await listJobs(d.db, {
    readable: await readableJobs(d.db, asker.grants),
    place: { projects: [] },
    statuses,
    owners: [asker.principal.username],
    tags: [],
    reverse: true,
    limit: LIST_MAX,
  });
  const which = statuses.length ? `${statuses.join(' or ')} ` : '';
  if (!rows.length) return { text: `You have no ${which}job.`, citations: [] };
  const lines = rows.map((j) => {
    const url = j.status === 'running' ? jobHttpUrl(d, j) : null;
    const why = j.status === 'failed' && j.reason ? ` (${inlineText(j.reason)})` : '';
    return `- Job ${j.name ?? j.id} (${j.id}) in ${where({ cluster: j.clusterName, org: j.orgName, project: j.projectName })}: ${j.status}${why}${url ? `, served at ${url}` : ''}`;
  });
  return {
    text: `Your ${which}jobs, newest first:\n${lines.join('\n')}`,
    citations: rows.map((j) => ({
      title: `Job ${j.name ?? j.id}`,
      url: consoleUrl.job(j.id),
      snippet: `${j.name ?? j.id}: ${j.status}`,
    })),
  };
}

/** The app instances of the asker's projects that are not uninstalled. */
export async function myAppsFact(d: FactDeps, asker: Asker): Promise<Fact> {
  const places = (await placesOf(d, asker)).filter((p) =>
    allows(asker.grants, projectUri(p.cluster, p.org, p.project), 'read'),
  );
  const rows = (
    await Promise.all(
      places.map(async (p) => (await listInstances(d.db, p, { page: 1, size: LIST_MAX + 1 })).rows),
    )
  )
    .flat()
    .filter((r) => r.state !== 'uninstalled')
    .slice(0, LIST_MAX);
  if (!rows.length) return { text: 'No app is installed in your projects.', citations: [] };
  const lines = rows.map(
    (r) =>
      `- App ${inlineText(r.displayName)} (${r.name}, ${r.templateName}) in ${r.orgName}/${r.projectName}: ${r.state}`,
  );
  return {
    text: `Installed apps:\n${lines.join('\n')}`,
    citations: rows.map((r) => ({
      title: `App ${r.displayName}`,
      url: consoleUrl.app(r.id),
      snippet: `${r.name}: ${r.state}`,
    })),
  };
}

/** The bakes of the flows the asker may read, newest first, or the one named. */
export async function bakesFact(d: FactDeps, asker: Asker, name: string | null): Promise<Fact> {
  const flows = (await projectsIn(d.db, await placesOf(d, asker))).filter((f) =>
    allows(asker.grants, flowUri(placeOfProject(f)), 'read'),
  );
  const bakes = (
    await Promise.all(
      flows.map(async (f) =>
        (await bakesOf(d.db, f.id, { tags: [], reverse: true })).map((b) => ({ b, f })),
      ),
    )
  )
    .flat()
    .filter(({ b }) => name === null || b.name === name || b.id === name)
    .sort((x, y) => y.b.createdAt.getTime() - x.b.createdAt.getTime())
    .slice(0, LIST_MAX);
  if (!bakes.length) {
    if (name !== null) throw notFound(`Bake ${name} not found`);
    return { text: 'You have no bake.', citations: [] };
  }
  const last = await lastAttempts(
    d.db,
    bakes.map(({ b }) => b.id),
  );
  const lines = bakes.map(({ b, f }) => {
    const attempt = last.get(b.id);
    const state = attempt ? `attempt ${attempt.number} ${attempt.result}` : 'not started';
    return `- Bake ${b.name ?? b.id} (${b.id}) of flow ${f.name}, batch ${inlineText(b.batch)}: ${state}`;
  });
  return {
    text: `${name === null ? 'Your bakes, newest first' : 'The bake'}:\n${lines.join('\n')}`,
    citations: bakes.map(({ b, f }) => ({
      title: `Bake ${b.name ?? b.id}`,
      url: consoleUrl.bake(f.id, f.name, b.id),
      snippet: `${b.name ?? b.id}: ${last.get(b.id)?.result ?? 'not started'}`,
    })),
  };
}

/** The disks of the asker's projects, as the Disks page lists them. */
export async function disksFact(d: FactDeps, asker: Asker): Promise<Fact> {
  const places = (await placesOf(d, asker)).filter((p) =>
    allows(asker.grants, diskUri(p.cluster, p.org, p.project), 'read'),
  );
  const rows = (await Promise.all(places.map((p) => disksIn(d.db, p)))).flat().slice(0, LIST_MAX);
  if (!rows.length) return { text: 'Your projects have no disk.', citations: [] };
  const lines = rows.map(
    (r) =>
      `- Disk ${r.name ?? r.id} (${r.id}) in ${r.orgName}/${r.projectName}: ${r.storage / 1e9} GB, ${r.status}`,
  );
  return {
    text: `Disks:\n${lines.join('\n')}`,
    citations: [{ title: 'Disks', url: consoleUrl.disks, snippet: lines[0]!.slice(2) }],
  };
}
