import { TOKEN_MAX_DAYS, TOKEN_TEXTS, type MemberRole } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { invalid, notFound } from '../../http/errors.js';
import { projectId } from '../projects/store.js';
import { createToken, listTokens, revokeToken } from './store.js';

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
async function idOf(db: Db, p: TokenPlace) {
  const id = await projectId(db, p.cluster, p.org, p.project);
  if (!id) throw notFound('Project not found');
  return id;
}

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
