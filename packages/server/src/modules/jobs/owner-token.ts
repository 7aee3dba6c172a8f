import { DEFAULT_MAX_RUN_TIME_MINUTES } from '@orrery/contract';
import { signAccessToken } from '../../auth/tokens.js';
import type { AppContext } from '../../context.js';
import { userById } from '../users/store.js';
import { isServiceAccountUser, liveTokenOf } from '../tokens/store.js';
import type { JobRow } from './store.js';

/**
 * A token of the job's owner that lives as long as the job may: for pulls from the project's
 * registry and for `pass_config`.
 */
export async function ownerToken(ctx: AppContext, j: JobRow) {
  const owner = j.ownerId ? await userById(ctx.db, j.ownerId) : null;
  if (!owner || ctx.config.oidc.external || !ctx.keys[0]) {
    throw new Error('Acting as the owner needs the embedded identity provider and the account');
  }
  // A project token's job acts as that token: refused with it once it is revoked (docs/tokens.md).
  const projectToken = (await isServiceAccountUser(ctx.db, owner.id))
    ? ((await liveTokenOf(ctx.db, owner.id)) ?? undefined)
    : undefined;
  return signAccessToken({
    projectToken,
    key: ctx.keys[0],
    issuer: ctx.config.oidc.issuer,
    audience: ctx.config.oidc.audience,
    subject: { id: owner.id, username: owner.username, email: owner.email },
    ttlSeconds: 60 * (j.maxRunTimeMinutes ?? DEFAULT_MAX_RUN_TIME_MINUTES) + 3600,
  });
}

/**
 * `pass_config`: the owner's credentials inside the job, so `apolo` works there as its owner
 * (the SDK reads base64 JSON from NEURO_PASSED_CONFIG).
 */
export async function passedConfig(ctx: AppContext, j: JobRow): Promise<Record<string, string>> {
  const passed = Buffer.from(
    JSON.stringify({
      token: await ownerToken(ctx, j),
      cluster: j.clusterName,
      org_name: j.orgName,
      project_name: j.projectName,
      url: `${ctx.config.publicUrl}/api/v1`,
    }),
  ).toString('base64');
  return { NEURO_PASSED_CONFIG: passed, APOLO_PASSED_CONFIG: passed };
}
