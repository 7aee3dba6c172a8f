import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
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
