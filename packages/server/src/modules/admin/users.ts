import {
  SEARCH_MAX,
  USERNAME,
  USERNAME_MESSAGE,
  matchesPrefix,
  type SystemUserWire,
} from '@orrery/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../auth/principal.js';
import { conflict, forbidden, invalid, notFound } from '../../http/errors.js';
import { brandingFor } from '../config/branding.js';
import { requestPasswordReset } from '../accounts/service.js';
import {
  allUsers,
  deleteUser,
  insertUser,
  updateUser,
  userByEmail,
  userByUsername,
  usersStartingWith,
  type UserRow,
} from '../users/store.js';
import { orgsOfUser } from '../orgs/store.js';
import { userInfo } from '../people/wire.js';

export const systemUserWire = (u: UserRow): SystemUserWire => {
  const info = userInfo(u);
  return {
    name: u.username,
    email: u.email,
    first_name: info.first_name,
    last_name: info.last_name,
    created_at: info.created_at,
    role: u.systemRole === 'admin' ? 'admin' : 'user',
  };
};

export const systemUsers = async (ctx: AppContext) => (await allUsers(ctx.db)).map(systemUserWire);

/**
 * The invite dialog's user search: prefix of username, name or e-mail, at most SEARCH_MAX.
 * Only organization managers search, since only they invite.
 */
export async function lookupUsers(ctx: AppContext, caller: Principal, query: string) {
  if (caller.systemRole !== 'admin') {
    const managed = await orgsOfUser(ctx.db, caller.id);
    if (!managed.some((m) => m.role === 'manager' || m.role === 'admin')) throw forbidden();
  }
  const escaped = query
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, '\\$&');
  // Any word of the full name counts: "smi" finds "Zelda Smith".
  const rows = await usersStartingWith(ctx.db, escaped, SEARCH_MAX * 2);
  return rows
    .filter((u) => matchesPrefix(query, u.username, u.name, u.email, ...u.name.split(/\s+/)))
    .slice(0, SEARCH_MAX)
    .map((u) => ({ name: u.username, email: u.email }));
}

/**
 * A system administrator creates an account by name and e-mail; its owner sets a password
 * through the reset link mailed to them, which also verifies the address.
 */
export async function createSystemUser(
  ctx: AppContext,
  request: FastifyRequest,
  p: {
    name: string;
    email: string;
    first_name?: string | null;
    last_name?: string | null;
    role: 'admin' | 'user';
  },
) {
  if (!USERNAME.test(p.name)) throw invalid('name', USERNAME_MESSAGE);
  if (await userByUsername(ctx.db, p.name)) throw conflict('This username is taken', 'name');
  if (await userByEmail(ctx.db, p.email))
    throw conflict('An account with this e-mail already exists', 'email');
  const fullName = [p.first_name, p.last_name].filter(Boolean).join(' ') || p.name;
  const row = await insertUser(ctx.db, {
    username: p.name,
    name: fullName,
    email: p.email,
    emailVerified: false,
    passwordHash: null,
    systemRole: p.role === 'admin' ? 'admin' : null,
  });
  await requestPasswordReset(
    { db: ctx.db, mailer: ctx.mailer, publicUrl: ctx.config.publicUrl, log: request.log },
    p.email,
    brandingFor(ctx.config, request.hostname).title,
  );
  return row;
}

async function other(ctx: AppContext, caller: Principal, name: string) {
  const user = await userByUsername(ctx.db, name);
  if (!user) throw notFound('User not found');
  // An administrator cannot lock themselves out of the admin area.
  if (user.id === caller.id) throw conflict('You cannot change or delete your own account here');
  return user;
}

export async function setSystemRole(
  ctx: AppContext,
  caller: Principal,
  name: string,
  role: 'admin' | 'user',
) {
  const user = await other(ctx, caller, name);
  return updateUser(ctx.db, user.id, { systemRole: role === 'admin' ? 'admin' : null });
}

export async function deleteSystemUser(ctx: AppContext, caller: Principal, name: string) {
  const user = await other(ctx, caller, name);
  await deleteUser(ctx.db, user.id);
}
