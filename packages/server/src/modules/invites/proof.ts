import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { loadSecretsKey } from '../secrets/key.js';
import { inviteById } from './store.js';

/**
 * The proof carried by the sign-up link of an invitation mail: a MAC of the invitation and the
 * invited address. Only the mailbox that received the mail has it, so an account created with it
 * for that address needs no second verification mail. The invitation id alone is no proof: the
 * organization's managers see it in their list.
 */
const proofKey = (config: Config) =>
  Buffer.from(
    hkdfSync(
      'sha256',
      loadSecretsKey({ configured: config.secretsKey, dataDir: config.dataDir }),
      Buffer.alloc(0),
      'orrery invite address proof',
      32,
    ),
  );

const mac = (key: Buffer, inviteId: string, email: string) =>
  createHmac('sha256', key).update(`${inviteId}\n${email.trim().toLowerCase()}`).digest();

export const inviteProof = (config: Config, inviteId: string, email: string) =>
  mac(proofKey(config), inviteId, email).toString('base64url');

export function inviteProofValid(
  config: Config,
  inviteId: string,
  email: string,
  proof: string,
): boolean {
  const given = Buffer.from(proof, 'base64url');
  const expected = mac(proofKey(config), inviteId, email);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Whether a sign-up with this address comes from the invitation mail sent to it. */
export async function addressProvenByInvite(
  ctx: { config: Config; db: Db },
  params: { invite?: unknown; proof?: unknown },
  email: string,
): Promise<boolean> {
  if (typeof params.invite !== 'string' || typeof params.proof !== 'string') return false;
  if (!inviteProofValid(ctx.config, params.invite, email, params.proof)) return false;
  // A withdrawn invitation proves nothing any more.
  const row = await inviteById(ctx.db, params.invite);
  return !!row && row.email.trim().toLowerCase() === email.trim().toLowerCase();
}
