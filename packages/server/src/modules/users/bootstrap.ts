import { normalizeName } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { generatePassword, hashPassword } from '../../auth/passwords.js';
import { insertUser, updateUser, userByEmail, userByUsername } from './store.js';

/** A free username from an e-mail's local part: `ada.l@x` → `ada-l`, then `ada-l-2`, ... */
export async function freeUsername(db: Db, email: string): Promise<string> {
  let base = normalizeName(email.split('@')[0].replace(/[^A-Za-z0-9 -]/g, '-')).slice(0, 36);
  if (base.length < 3) base = `${base}user`.slice(0, 36);
  for (let i = 1; ; i++) {
    const candidate = i === 1 ? base : `${base}-${i}`;
    if (!(await userByUsername(db, candidate))) return candidate;
  }
}

/**
 * First start: the system admin from ORRERY_ADMIN_EMAIL / ORRERY_ADMIN_PASSWORD. Without a
 * password one is generated and returned, to be printed once.
 */
export async function bootstrapAdmin(
  db: Db,
  email: string,
  password: string | undefined,
): Promise<{ created: boolean; username: string; generatedPassword?: string }> {
  const existing = await userByEmail(db, email);
  if (existing) {
    if (existing.systemRole !== 'admin') {
      await updateUser(db, existing.id, { systemRole: 'admin' });
    }
    return { created: false, username: existing.username };
  }
  const generated = password ? undefined : generatePassword();
  const username = await freeUsername(db, email);
  await insertUser(db, {
    username,
    name: 'Administrator',
    email,
    emailVerified: true,
    passwordHash: await hashPassword(password ?? generated!),
    systemRole: 'admin',
  });
  return { created: true, username, generatedPassword: generated };
}
