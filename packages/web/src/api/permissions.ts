import { PERMISSION_CHECK_MAX, type Action, type PermissionVerdictWire } from '@orrery/contract';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { API, request } from './client';
import { messageOf } from '../ui/errors';

/** One question to the server's permission engine: may the signed-in user `action` on `uri`? */
export interface Ask {
  uri: string;
  action: Action;
}

/**
 * The answer as an action shows it: `allowed`, or not with the reason for its tooltip. While the
 * answer is on its way `pending` is true and nothing is allowed: the console offers an action only
 * once the server said it may be done.
 */
export interface Can {
  allowed: boolean;
  reason: string | null;
  pending: boolean;
}

const PENDING: Can = { allowed: false, reason: null, pending: true };
/** For an action this piece of the console does not ask about (its caller already did). */
export const ALLOWED: Can = { allowed: true, reason: null, pending: false };
export const CHECK_FAILED = 'Could not check your permissions';

/**
 * A member of an organization or project as the permission check names it (docs/permissions.md):
 * `manage` on it is editing or removing that member.
 */
export const memberUri = (scopeUri: string, userName: string) => `${scopeUri}/users/${userName}`;

export const permissionKeys = {
  all: ['can'] as const,
  one: (a: Ask) => ['can', a.action, a.uri] as const,
};

/**
 * Questions asked in the same render (every gated action a page shows) go out as one request;
 * each waits for its own answer.
 */
let queue: { ask: Ask; resolve(v: Can): void; reject(e: unknown): void }[] = [];

async function flush() {
  const batch = queue;
  queue = [];
  for (let i = 0; i < batch.length; i += PERMISSION_CHECK_MAX) {
    const part = batch.slice(i, i + PERMISSION_CHECK_MAX);
    try {
      const verdicts = await request<PermissionVerdictWire[]>(`${API.core}/permissions/check`, {
        method: 'POST',
        body: part.map((q) => q.ask),
      });
      part.forEach((q, j) => {
        const v = verdicts[j];
        q.resolve({ allowed: !!v?.allowed, reason: v?.reason ?? null, pending: false });
      });
    } catch (error) {
      part.forEach((q) => q.reject(error));
    }
  }
}

export function askPermission(ask: Ask): Promise<Can> {
  return new Promise((resolve, reject) => {
    // Queries of one render start together: a microtask later they are all in the queue (and
    // no timer is involved, which a page's fake timers in tests would hold back).
    if (queue.length === 0) queueMicrotask(() => void flush());
    queue.push({ ask, resolve, reject });
  });
}

/**
 * What the signed-in user may do: `useCan([{ uri, action }, …])` answers one `Can` per question,
 * in order; a null question (its URI not known yet) stays pending. The one place the console
 * learns what to offer: never compute it from role names. Render the action through `WhyNot`
 * (ui/WhyNot.tsx), which disables it with the reason as its tooltip, or hides it for "managers
 * only" actions:
 *
 *   const [kill] = useCan([{ uri: job.uri, action: 'write' }]);
 *   <WhyNot can={kill}><Button onClick={…}>Kill</Button></WhyNot>
 *
 * A page's questions travel in one request; answers are cached per URI and action for the
 * session's stale time, and `useForgetPermissions()` drops them when a role or share changes.
 */
export function useCan(asks: (Ask | null | undefined)[]): Can[] {
  const results = useQueries({
    queries: asks.map((ask) => ({
      queryKey: ask ? permissionKeys.one(ask) : ['can', 'none'],
      queryFn: () => askPermission(ask!),
      enabled: !!ask,
    })),
  });
  return results.map((r, i) => {
    if (!asks[i]) return PENDING;
    if (r.data) return r.data;
    if (r.isError)
      return { allowed: false, reason: messageOf(r.error, CHECK_FAILED), pending: false };
    return PENDING;
  });
}

/** After a change of roles or shares: every answer is asked again. */
export function useForgetPermissions() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: permissionKeys.all });
}

/** One question's answer; see `useCan`. */
export const useCanOne = (ask: Ask | null | undefined): Can => useCan([ask])[0];

/**
 * An action that a state rule may also disable (Kill only while a job runs): the rule's reason
 * first, then the permission's.
 */
export const withRule = (can: Can, rule: { enabled: boolean; why: string | null }): Can =>
  rule.enabled ? can : { allowed: false, reason: rule.why, pending: false };
