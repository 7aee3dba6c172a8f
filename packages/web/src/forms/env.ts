import { secretUriOf, type FormPlace } from './uris';

/** workloads §3 Env entry: a plain variable, or one fed from a secret (`secret:KEY`). */
export interface EnvEntry {
  name: string;
  value: string;
  type: 'variable' | 'secret';
}

/** The job wire's two maps (apolo-wire §2): `env {K: V}` and `secret_env {K: secret://…}`. */
export function toWireEnv(entries: readonly EnvEntry[], place: FormPlace) {
  const env: Record<string, string> = {};
  const secretEnv: Record<string, string> = {};
  for (const e of entries) {
    if (e.type === 'secret') secretEnv[e.name] = secretUriOf(e.value, place);
    else env[e.name] = e.value;
  }
  return { env, secret_env: secretEnv };
}
