import {
  DiskName,
  diskUri,
  isFinalJobStatus,
  jobUri,
  projectUri,
  type JobStatus,
} from '@orrery/contract';
import { allows } from '../../../auth/permissions.js';
import type { Db } from '../../../db/client.js';
import { conflict, forbidden, invalid } from '../../../http/errors.js';
import { diskCreditsPerDay } from '../../billing/disk-sampler.js';
import { loadClusters, type ClusterCatalog } from '../../clusters/store.js';
import type { PlanSpec } from '../plans.js';
import type { Asker } from '../types.js';
import type { Catalogue } from '../../apps/catalogue.js';
import { proposeInstall } from './install.js';
import type { ChangeIntent } from './intents.js';
import { consoleUrl, placeOf, placeOfRow, readableApp, readableJob } from './resolve.js';

const BYTES_PER_GB = 1000 ** 3;
/** The largest disk the assistant proposes; a bigger one is created from the Disks page. */
export const MAX_DISK_GB = 100_000;
export const PROPOSAL_TEXTS = {
  noProject: 'Open a project first: a disk is created in the project you have open',
  diskSize: `A disk may have 1 to ${MAX_DISK_GB} GB here`,
  jobEnded: (name: string, status: string) => `Job ${name} has already ended (${status})`,
  appGone: (name: string) => `App ${name} is already uninstalled or being uninstalled`,
} as const;

/**
 * The plan for a change the question asks for, or a refusal (an HttpError with the API's words):
 * nothing is offered that the user could not do, and nothing is done here.
 */
export async function proposeChange(
  deps: { db: Db; catalogue: Catalogue; clusterCatalog: ClusterCatalog },
  asker: Asker,
  intent: ChangeIntent,
): Promise<PlanSpec> {
  const { db } = deps;
  switch (intent.kind) {
    case 'kill-job': {
      const j = await readableJob(db, asker, intent.job);
      if (!allows(asker.grants, jobUri(j.clusterName, j.orgName, j.projectName, j.id), 'write'))
        throw forbidden();
      const name = j.name ?? j.id;
      if (isFinalJobStatus(j.status as JobStatus))
        throw conflict(PROPOSAL_TEXTS.jobEnded(name, j.status));
      return {
        title: `Kill job ${name}`,
        call: { method: 'DELETE', path: `/api/v1/jobs/${encodeURIComponent(j.id)}` },
        context: placeOfRow(j),
        creditsPerHour: null,
        resultUrl: consoleUrl.job(j.id),
        doneMessage: 'Job killed',
      };
    }
    case 'uninstall-app': {
      const a = await readableApp(db, asker, intent.app);
      if (!allows(asker.grants, projectUri(a.clusterName, a.orgName, a.projectName), 'write'))
        throw forbidden();
      if (a.state === 'uninstalled' || a.state === 'uninstalling')
        throw conflict(PROPOSAL_TEXTS.appGone(a.name));
      const scope = `/apis/apps/v1/cluster/${a.clusterName}/org/${a.orgName}/project/${a.projectName}`;
      return {
        title: `Uninstall app ${a.displayName} (${a.name})`,
        call: { method: 'DELETE', path: `${scope}/instances/${a.id}` },
        context: placeOfRow(a),
        creditsPerHour: null,
        resultUrl: consoleUrl.app(a.id),
        doneMessage: 'App uninstalled successfully',
      };
    }
    case 'create-disk': {
      const here = placeOf(asker);
      if (!here) throw conflict(PROPOSAL_TEXTS.noProject);
      if (!allows(asker.grants, diskUri(here.cluster, here.org, here.project), 'write'))
        throw forbidden();
      if (intent.gigabytes < 1 || intent.gigabytes > MAX_DISK_GB)
        throw invalid('storage', PROPOSAL_TEXTS.diskSize);
      if (intent.name !== null) {
        const named = DiskName.safeParse(intent.name);
        if (!named.success) throw invalid('name', named.error.issues[0]!.message);
      }
      const storage = intent.gigabytes * BYTES_PER_GB;
      const [cluster] = await loadClusters(deps.clusterCatalog, [here.cluster]);
      const perDay = cluster
        ? diskCreditsPerDay(storage, cluster.cluster.diskCreditsPerDayPerGb)
        : 0;
      const label = intent.name ? `${intent.name} ` : '';
      return {
        title: `Create disk ${label}of ${intent.gigabytes} GB`,
        call: {
          method: 'POST',
          path: '/api/v1/disk',
          body: {
            storage,
            name: intent.name,
            life_span: null,
            cluster_name: here.cluster,
            org_name: here.org,
            project_name: here.project,
          },
        },
        context: here,
        creditsPerHour: perHour(perDay),
        resultUrl: consoleUrl.disks,
        doneMessage: `Disk ${label}created`,
      };
    }
    case 'install-app':
      return proposeInstall(deps, asker, intent);
  }
}

/** Credits per day as a per-hour decimal string, to 4 places as balances are kept. */
const perHour = (perDay: number) => String(Number((perDay / 24).toFixed(4)));
