import {
  SERVICE_ACCOUNT_TEXTS,
  TOKEN_MAX_DAYS,
  TOKEN_TEXTS,
  type MemberRole,
} from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { conflict, invalid } from '../../http/errors.js';
import { projectIdAt } from '../projects/service.js';
import { createToken, listTokens, revokeToken } from './store.js';
import { accountsOf, projectsNamed } from './accounts-store.js';
import { accountName, accountWire } from './accounts-wire.js';

export { accountsOf, projectsNamed };

const DAY_MS = 86_400_000;

/** When a new token expires: in the future, within TOKEN_MAX_DAYS. */
export function expiryOf(raw: string, now = Date.now()): Date {
  const at = new Date(raw);
  if (at.getTime() <= now) throw invalid('expires_at', TOKEN_TEXTS.expiryPast);
  // A minute of slack, so that "365 days" picked in the console is not refused in transit.
  if (at.getTime() > now + TOKEN_MAX_DAYS * DAY_MS + 60_000) {
    throw invalid('expires_at', TOKEN_TEXTS.expiryTooFar);
  }
  return at;
}

/** A project as the tokens routes name it. */
export interface TokenPlace {
  cluster: string;
  org: string;
  project: string;
}

/** The project's id; 404 when there is no such project. */
const idOf = (db: Db, p: TokenPlace) => projectIdAt(db, p);

/** The tokens of a project (docs/tokens.md). */
export const projectTokens = async (db: Db, p: TokenPlace) => listTokens(db, await idOf(db, p));

/** A new token of the project, shown once; `expiresAt` as the wire gives it (`expiryOf`). */
export async function createProjectToken(
  db: Db,
  p: TokenPlace,
  t: { name: string; role: MemberRole; expiresAt: string; createdBy: string; issuer: string },
) {
  const projectId = await idOf(db, p);
  return createToken(db, { ...t, projectId, expiresAt: expiryOf(t.expiresAt) });
}

/** Revokes one token of the project. */
export const revokeProjectToken = async (db: Db, p: TokenPlace, id: string) =>
  revokeToken(db, await idOf(db, p), id);

/**
 * The project a service account is made in; 404 when there is none (an organization admin may
 * manage a project that does not exist yet).
 */
export const accountProjectId = (db: Db, p: TokenPlace) =>
  projectIdAt(db, p, SERVICE_ACCOUNT_TEXTS.projectNotFound);

/**
 * A new service account of its owner in a project: a manager token lasting TOKEN_MAX_DAYS, named
 * `name` or a made-up name; the name is unique among the owner's accounts, since it finds the
 * account in GET and DELETE. Answers the account with its token, shown once.
 */
export async function createAccount(
  db: Db,
  owner: { id: string; username: string },
  where: TokenPlace & { id: string },
  name: string | null | undefined,
  issuer: string,
) {
  const named = name ?? accountName();
  if ((await accountsOf(db, owner.id, named)).length > 0) {
    throw conflict(SERVICE_ACCOUNT_TEXTS.nameTaken, 'name');
  }
  const created = await createToken(db, {
    projectId: where.id,
    name: named,
    role: 'manager',
    expiresAt: new Date(Date.now() + TOKEN_MAX_DAYS * DAY_MS),
    createdBy: owner.id,
    issuer,
  });
  const account = accountWire({
    ...where,
    projectId: where.id,
    id: created.id,
    name: named,
    role: created.role,
    owner: owner.username,
    createdAt: new Date(created.created_at),
  });
  return { ...account, token: created.token };
}

/** Revokes a service account's token. */
export const revokeAccount = (db: Db, a: { projectId: string; id: string }) =>
  revokeToken(db, a.projectId, a.id);
