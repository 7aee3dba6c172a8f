import type { Grant } from '../../auth/permissions.js';
import type { Db } from '../../db/client.js';
import { projectsOnCluster } from '../projects/store.js';
import type { ProjectPlace } from './store.js';

/**
 * Which jobs a caller may list, from their grants: whole projects (a project role, or a share of
 * `job://C/O/P` or above it) and single shared jobs (`job://C/O/P/ID`). Shares above a project
 * are expanded to the projects that exist under them.
 */
export async function readableJobs(db: Db, grants: Grant[]) {
  if (grants.some((g) => g.scheme === '*')) return { all: true, places: [], ids: [] };
  const places = new Map<string, ProjectPlace>();
  const ids: string[] = [];
  const add = (p: ProjectPlace) => places.set(`${p.cluster}/${p.org}/${p.project}`, p);
  for (const g of grants) {
    if (g.scheme !== 'project-scoped' && g.scheme !== 'job') continue;
    const [cluster, org, project, id] = g.path;
    if (id !== undefined && g.scheme === 'job') {
      ids.push(id);
    } else if (project !== undefined) {
      add({ cluster: cluster!, org: org!, project });
    } else if (g.scheme === 'job' && cluster !== undefined) {
      const rows = await projectsOnCluster(db, cluster, org);
      for (const p of rows) add({ cluster: p.clusterName, org: p.orgName, project: p.name });
    }
  }
  return { all: false, places: [...places.values()], ids };
}
