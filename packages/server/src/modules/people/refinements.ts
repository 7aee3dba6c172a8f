import type { Db } from '../../db/client.js';
import { orgRoleOf } from '../../auth/permissions.js';
import type { Refinement } from '../permissions/check.js';
import { userByUsername } from '../users/store.js';
import { adminRoleRefusal, callerOrgRole, projectAdminRefusal } from './service.js';
import { projectUsers } from './store.js';
import { projectId } from '../projects/store.js';
import type { OrgRole } from '@orrery/contract';

/**
 * Members as the permission check names them: `org://ORG/users/NAME` and
 * `project://CLUSTER/ORG/PROJECT/users/NAME`; `manage` on one is editing or removing that member.
 * The grants on the organization or project decide, and then the admin rules of service.ts, the
 * same functions the member routes refuse with.
 */
export const memberRefinement =
  (db: Db): Refinement =>
  async ({ caller, parsed, action, have }) => {
    if (action !== 'manage' || have !== 'manage') return null;
    const s = parsed.segments;
    if (parsed.scheme === 'org' && s.length === 3 && s[1] === 'users') {
      const target = await userByUsername(db, s[2]);
      const current = target ? ((await orgRoleOf(db, target.id, s[0])) as OrgRole | null) : null;
      const refused = adminRoleRefusal(await callerOrgRole(db, caller, s[0]), current, null);
      return refused ? { allowed: false, reason: refused } : null;
    }
    if (parsed.scheme === 'project' && s.length === 5 && s[3] === 'users') {
      const id = await projectId(db, s[0], s[1], s[2]);
      if (!id) return null;
      const members = await projectUsers(db, id);
      const current = members.find((m) => m.username === s[4])?.role;
      const refused = await projectAdminRefusal(db, caller, s[1], members, current);
      return refused ? { allowed: false, reason: refused } : null;
    }
    return null;
  };
