import { parseUri, type Action } from '@orrery/contract';
import { actionOn, type Grant } from '../../auth/permissions.js';
import { notFoundErr } from './errors.js';

/**
 * Whether a share lies strictly below `uri`. A user shared `storage://C/O/P/shared` alone may
 * still walk down to it: the project root lists `shared` and nothing else.
 */
export function grantsBelow(grants: Grant[], uri: string): boolean {
  const parsed = parseUri(uri);
  if (!parsed) return false;
  const n = parsed.segments.length;
  return grants.some(
    (g) =>
      g.scheme === 'storage' &&
      g.path.length > n &&
      parsed.segments.every((seg, i) => g.path[i] === seg),
  );
}

/**
 * What the caller may see at `uri` for stat and listing: its own action there, `read` when
 * there is only a way through to a share below, or null (nothing to see).
 */
export function visibleAction(grants: Grant[], uri: string): Action | null {
  return actionOn(grants, uri) ?? (grantsBelow(grants, uri) ? 'read' : null);
}

/** As `visibleAction`, but nothing to see is a 404 (the path's existence must not leak). */
export function requireVisible(grants: Grant[], uri: string): Action {
  const action = visibleAction(grants, uri);
  if (!action) throw notFoundErr();
  return action;
}
