import type { ProjectPlace } from '@orrery/contract';
import { FORM_MESSAGES } from './texts';
import { secretUriOf } from './uris';

/** Env entry: a plain variable, or one fed from a secret (`secret:KEY`). */
export interface EnvEntry {
  name: string;
  value: string;
  type: 'variable' | 'secret';
}

/**
 * An environment variable's name and value take at least 1 character. A name of
 * spaces only names nothing, so it counts as empty.
 */
export function envVariableErrors(e: Pick<EnvEntry, 'name' | 'value'>) {
  const errors: { name?: string; value?: string } = {};
  if (e.name.trim().length < 1) errors.name = FORM_MESSAGES.required;
  if (e.value.length < 1) errors.value = FORM_MESSAGES.required;
  return errors;
}

/** The job wire's two maps: `env {K: V}` and `secret_env {K: secret://…}`. */
export function toWireEnv(entries: readonly EnvEntry[], place: ProjectPlace) {
  const env: Record<string, string> = {};
  const secretEnv: Record<string, string> = {};
  for (const e of entries) {
    if (e.type === 'secret') secretEnv[e.name] = secretUriOf(e.value, place);
    else env[e.name] = e.value;
  }
  return { env, secret_env: secretEnv };
}

/** Apolo's `Env {name, value: string | ApoloSecret {key}}`. */
export interface ApoloEnv {
  name: string;
  value: string | { key: string; [marker: string]: unknown };
  [marker: string]: unknown;
}
const SECRET_PREFIX = 'secret:';

/** Apolo's env list as the env editor's entries: a secret value shows as `secret:KEY`. */
export const fromApoloEnv = (items: readonly ApoloEnv[]): EnvEntry[] =>
  items.map((e) =>
    typeof e.value === 'object' && e.value !== null
      ? { name: e.name ?? '', value: `${SECRET_PREFIX}${e.value.key}`, type: 'secret' }
      : { name: e.name ?? '', value: e.value ?? '', type: 'variable' },
  );

export const toApoloEnv = (entries: readonly EnvEntry[]): ApoloEnv[] =>
  entries.map((e) => ({
    name: e.name,
    value:
      e.type === 'secret'
        ? { key: e.value.startsWith(SECRET_PREFIX) ? e.value.slice(SECRET_PREFIX.length) : e.value }
        : e.value,
  }));
