import { and, eq, notInArray } from 'drizzle-orm';
import { APP_FINAL_STATES } from '@orrery/contract';
import type { Db } from '../../../db/client.js';
import { appInstances } from '../../apps/tables.js';
import { assistantOrgModels } from './tables.js';

export async function chosenApp(db: Db, org: string): Promise<string | null> {
  const [row] = await db
    .select({ id: assistantOrgModels.appInstanceId })
    .from(assistantOrgModels)
    .where(eq(assistantOrgModels.orgName, org));
  return row?.id ?? null;
}

export async function chooseApp(db: Db, org: string, appInstanceId: string | null, by: string) {
  if (!appInstanceId) {
    await db.delete(assistantOrgModels).where(eq(assistantOrgModels.orgName, org));
    return;
  }
  const values = { orgName: org, appInstanceId, setBy: by, updatedAt: new Date() };
  await db
    .insert(assistantOrgModels)
    .values(values)
    .onConflictDoUpdate({ target: assistantOrgModels.orgName, set: values });
}

/** The organization's llm-inference apps that can still serve (not uninstalled or failed). */
export const llmAppsOf = (db: Db, org: string, template: string) =>
  db
    .select()
    .from(appInstances)
    .where(
      and(
        eq(appInstances.orgName, org),
        eq(appInstances.templateName, template),
        notInArray(appInstances.state, [...APP_FINAL_STATES]),
      ),
    )
    .orderBy(appInstances.projectName, appInstances.displayName);
