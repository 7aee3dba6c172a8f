import {
  atLeast,
  parseUri,
  type Action,
  type ParsedUri,
  type PermissionVerdictWire,
} from '@orrery/contract';
import { actionOn, type Grant } from '../../auth/permissions.js';
import type { Principal } from '../../auth/principal.js';

/** Said for a URI the caller has nothing on: the same whether it exists or not (no leak). */
export const NO_ACCESS = 'You have no access to this resource';
export const tooWeak = (have: Action, need: Action) =>
  `You have ${have} access here; this needs ${need} access`;

export interface CheckInput {
  caller: Principal;
  grants: Grant[];
  uri: string;
  parsed: ParsedUri;
  action: Action;
  /** What the grants alone give on the URI. */
  have: Action | null;
}

/**
 * A rule of an area that the grants alone do not express (a disk's owner deletes it, only an
 * organization admin changes an admin), written once in its area and used both by the area's
 * route and by the check. It answers a verdict for the URIs it knows, or null to leave the
 * grants' answer. It is only asked when the caller may read the URI, so what it looks up never
 * tells a stranger anything.
 */
export type Refinement = (
  input: CheckInput,
) => Promise<{ allowed: boolean; reason: string | null } | null>;

/** The engine's answer for one question: the grants, then the areas' refinements. */
async function verdictOf(
  caller: Principal,
  grants: Grant[],
  item: { uri: string; action: Action },
  refinements: Refinement[],
): Promise<PermissionVerdictWire> {
  const parsed = parseUri(item.uri);
  const have = parsed ? actionOn(grants, item.uri) : null;
  const answer = (allowed: boolean, reason: string | null) => ({ ...item, allowed, reason });
  if (!parsed || !have) return answer(false, NO_ACCESS);
  for (const refine of refinements) {
    const refined = await refine({
      caller,
      grants,
      uri: item.uri,
      parsed,
      action: item.action,
      have,
    });
    if (refined) return answer(refined.allowed, refined.allowed ? null : refined.reason);
  }
  return atLeast(have, item.action)
    ? answer(true, null)
    : answer(false, tooWeak(have, item.action));
}

/** Answers each question in order; the same URI and action asked twice is looked up once. */
export async function checkAll(
  caller: Principal,
  grants: Grant[],
  items: { uri: string; action: Action }[],
  refinements: Refinement[],
): Promise<PermissionVerdictWire[]> {
  const seen = new Map<string, Promise<PermissionVerdictWire>>();
  return Promise.all(
    items.map((item) => {
      const key = `${item.action} ${item.uri}`;
      if (!seen.has(key)) seen.set(key, verdictOf(caller, grants, item, refinements));
      return seen.get(key)!;
    }),
  );
}
