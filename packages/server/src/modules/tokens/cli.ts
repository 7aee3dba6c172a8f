import { MemberRole, ProjectTokenCreate, TOKEN_TEXTS, projectUri } from '@orrery/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { allows, grantsOf } from '../../auth/permissions.js';
import { principalOf } from '../../auth/principal-hook.js';
import { parseTtl } from '../../auth/tokens.js';
import { userByEmail } from '../users/store.js';
import { projectId } from '../projects/store.js';
import { createToken, listTokens, revokeToken } from './store.js';
import { expiryOf } from './service.js';
import { CliError, type TokensArgs } from './cli-args.js';

/**
 * `orrery tokens create|list|revoke`, run with the database (directly, or inside the server that
 * holds it): the caller is the user of `--email`, checked by the same permission engine as the
 * API, so the CLI grants nothing its user could not do in the console.
 */
export async function runTokens(deps: { db: Db; config: Config }, a: TokensArgs): Promise<string> {
  if (!['create', 'list', 'revoke'].includes(a.action)) {
    throw new CliError(`tokens: unknown action "${a.action}"; use create, list or revoke`);
  }
  if (!a.email) throw new CliError('tokens: --email is required');
  const [cluster, org, project, ...extra] = (a.project ?? '').split('/');
  if (!cluster || !org || !project || extra.length) {
    throw new CliError('tokens: --project CLUSTER/ORG/PROJECT is required');
  }
  const user = await userByEmail(deps.db, a.email);
  if (!user) throw new CliError(`No user with e-mail ${a.email}`);
  const id = await projectId(deps.db, cluster, org, project);
  const grants = await grantsOf(deps.db, principalOf(user));
  if (!id || !allows(grants, projectUri(cluster, org, project), 'read')) {
    throw new CliError(`Project ${a.project} not found`);
  }
  if (!allows(grants, projectUri(cluster, org, project), 'manage')) {
    throw new CliError(`${a.email} does not manage project ${a.project}`);
  }
  if (a.action === 'list') {
    const rows = await listTokens(deps.db, id);
    if (rows.length === 0) return `${TOKEN_TEXTS.none}\n`;
    return rows
      .map((t) => [t.name, t.role, t.status, t.expires_at, t.username].join('\t'))
      .join('\n')
      .concat('\n');
  }
  if (!a.name) throw new CliError(`tokens ${a.action}: --name is required`);
  if (!ProjectTokenCreate.shape.name.safeParse(a.name).success)
    throw new CliError(TOKEN_TEXTS.name);
  if (a.action === 'revoke') {
    const live = (await listTokens(deps.db, id)).find(
      (t) => t.name === a.name && t.status !== 'revoked',
    );
    if (!live) throw new CliError(TOKEN_TEXTS.notFound);
    await revokeToken(deps.db, id, live.id);
    return `${TOKEN_TEXTS.revoked(a.name)}\n`;
  }
  const role = MemberRole.safeParse(a.role ?? 'writer');
  if (!role.success) throw new CliError('tokens create: --role is reader, writer or manager');
  const created = await createToken(deps.db, {
    projectId: id,
    name: a.name,
    role: role.data,
    expiresAt: expiryOf(new Date(Date.now() + parseTtl(a.ttl ?? '30d') * 1000).toISOString()),
    createdBy: user.id,
    issuer: deps.config.publicUrl,
  });
  return `${created.token}\n`;
}
