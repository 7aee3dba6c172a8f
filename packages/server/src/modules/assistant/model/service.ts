import { isFinalAppState, projectUri, type AppState } from '@orrery/contract';
import { allows, type Grant } from '../../../auth/permissions.js';
import type { Db } from '../../../db/client.js';
import { invalid } from '../../../http/errors.js';
import { instanceById } from '../../apps/store.js';
import { LLM_TEMPLATE } from './choice.js';
import { chooseApp, chosenApp, llmAppsOf } from './store.js';

export { chosenApp };

/** The organization's llm-inference apps that can still serve, in projects `grants` can read. */
export async function modelChoices(db: Db, org: string, grants: Grant[]) {
  const rows = await llmAppsOf(db, org, LLM_TEMPLATE);
  return rows.filter((r) =>
    allows(grants, projectUri(r.clusterName, r.orgName, r.projectName), 'read'),
  );
}

/**
 * Makes an app the organization's model, or none (`id` null). The app must be an llm-inference
 * instance of this organization, in a project `grants` can read, that can still serve: anything
 * else outside the organization or those projects is the same 400, so that no other
 * organization's instance is confirmed to exist.
 */
export async function chooseModelApp(
  db: Db,
  org: string,
  id: string | null,
  grants: Grant[],
  by: string,
) {
  if (id) {
    const row = await instanceById(db, id);
    const readable =
      row &&
      row.orgName === org &&
      allows(grants, projectUri(row.clusterName, row.orgName, row.projectName), 'read');
    if (!readable) {
      throw invalid(
        'app_instance_id',
        `No app instance ${id} in organization ${org} that you can read`,
      );
    }
    if (row.templateName !== LLM_TEMPLATE) {
      throw invalid(
        'app_instance_id',
        `${row.displayName} is a ${row.templateName} app: choose an ${LLM_TEMPLATE} app`,
      );
    }
    if (isFinalAppState(row.state as AppState)) {
      throw invalid('app_instance_id', `${row.displayName} is ${row.state}`);
    }
  }
  await chooseApp(db, org, id, by);
}
