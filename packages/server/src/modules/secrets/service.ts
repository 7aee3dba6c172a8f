import { SECRETS_DEFAULT_CLUSTER, secretUri } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { conflict, notFound } from '../../http/errors.js';
import { projectExists } from '../projects/store.js';
import { seal, unseal } from './key.js';
import {
  deleteSecret,
  insertSecret,
  secretByKey,
  secretsIn,
  type SecretPlace,
  type SecretRow,
} from './store.js';

/** The scope fields of a query or body, as the wire names them (cluster optional). */
export interface WireScope {
  cluster_name?: string;
  org_name?: string;
  project_name?: string;
}

/**
 * Access is checked before validation, so a missing name or one with a slash must not shift the
 * URI's segments onto another project: it becomes `.`, which no URI may hold (answered 404).
 */
const segment = (name: string | undefined) => (name && !name.includes('/') ? name : '.');

/** The project a request addresses. The CLI sends no cluster, so it defaults to the local one. */
export const placeOf = (s: WireScope | undefined): SecretPlace => ({
  cluster: segment(s?.cluster_name || SECRETS_DEFAULT_CLUSTER),
  org: segment(s?.org_name),
  project: segment(s?.project_name),
});

export const placeUri = (p: SecretPlace, key?: string) =>
  secretUri(p.cluster, p.org, p.project, key);

/** Row identity bound into the ciphertext (see `seal`). */
const aadOf = (p: SecretPlace, key: string) => placeUri(p, key);

/** Owner on the wire: the creator, or the project once their account is gone. */
export const secretWire = (p: SecretPlace, row: Pick<SecretRow, 'key' | 'owner'>) => ({
  key: row.key,
  org_name: p.org,
  project_name: p.project,
  owner: row.owner ?? p.project,
});

export async function createSecret(
  db: Db,
  sealKey: Buffer,
  p: SecretPlace,
  caller: Principal,
  input: { key: string; valueBase64: string },
) {
  // A system admin passes the permission check for any name; the project must still exist.
  if (!(await projectExists(db, p.cluster, p.org, p.project))) throw notFound('Project not found');
  const sealed = seal(sealKey, Buffer.from(input.valueBase64, 'base64'), aadOf(p, input.key));
  const created = await insertSecret(db, p, { key: input.key, sealed, ownerId: caller.id });
  if (!created) throw conflict(`Secret ${input.key} already exists`, 'key');
  return secretWire(p, { key: input.key, owner: caller.username });
}

/** The secrets of a project, without their values. */
export const listSecrets = (db: Db, p: SecretPlace) => secretsIn(db, p);

export async function readSecret(db: Db, sealKey: Buffer, p: SecretPlace, key: string) {
  const row = await secretByKey(db, p, key);
  if (!row) throw notFound(`Secret ${key} not found`);
  const value = unseal(sealKey, row.sealed, aadOf(p, key)).toString('base64');
  return { ...secretWire(p, row), value };
}

export async function removeSecret(db: Db, p: SecretPlace, key: string) {
  if (!(await deleteSecret(db, p, key))) throw notFound(`Secret ${key} not found`);
}
