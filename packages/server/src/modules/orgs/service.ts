import type { Db } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { clusterOrgs, clusters, organizations, orgMembers } from '../../db/schema.js';
import { conflict, forbidden } from '../../http/errors.js';
import { DEFAULT_CLUSTER } from '@orrery/contract';
import { eq } from 'drizzle-orm';
import { orgExists } from './store.js';

export const ORG_TAKEN = 'Organization with such name already exits';
export const VERIFY_FIRST = 'Verify your e-mail address before creating an organization';

/**
 * Creates an organization with the caller as its admin. With the embedded defaults the new
 * organization is linked to the local cluster `default` (while it exists) at once, so that a
 * newcomer can go on to a project; `apolo admin add-org --skip-default-tenants` asks not to.
 */
export async function createOrg(
  db: Db,
  caller: Principal,
  name: string,
  { linkLocalCluster = true } = {},
) {
  if (!caller.emailVerified) throw forbidden(VERIFY_FIRST);
  if (await orgExists(db, name)) throw conflict(ORG_TAKEN, 'name');
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(organizations)
      .values({ name })
      .onConflictDoNothing()
      .returning({ name: organizations.name });
    if (inserted.length === 0) throw conflict(ORG_TAKEN, 'name');
    await tx.insert(orgMembers).values({ orgName: name, userId: caller.id, role: 'admin' });
    if (!linkLocalCluster) return;
    const [local] = await tx.select().from(clusters).where(eq(clusters.name, DEFAULT_CLUSTER));
    if (local) await tx.insert(clusterOrgs).values({ clusterName: local.name, orgName: name });
  });
}
