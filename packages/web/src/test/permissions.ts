import type { Action } from '@orrery/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { CannedResponse } from './fetch';

const RANK: Record<Action, number> = { read: 1, write: 2, manage: 3 };

/**
 * A stand-in for the server's `POST /api/v1/permissions/check` (the real one is tested in
 * packages/server/src/modules/permissions/check.test.ts): a user holding `have` on every URI
 * starting with `prefix` (the first that matches), nothing elsewhere, answered with the server's
 * reasons; `deny` stands for an area's own rule refusing with its message.
 */
export function permissionsOf(
  grants: ({ prefix: string; have: Action } | { prefix: string; deny: string })[],
): CannedResponse {
  return {
    method: 'POST',
    url: '/api/v1/permissions/check',
    reply: (body) =>
      (body as { uri: string; action: Action }[]).map((q) => {
        const grant = grants.find((g) => q.uri.startsWith(g.prefix));
        // An area's rule (e.g. only an organization admin changes an admin) says no with its text.
        if (grant && 'deny' in grant)
          return { uri: q.uri, action: q.action, allowed: false, reason: grant.deny };
        const have = grant?.have;
        const allowed = !!have && RANK[have] >= RANK[q.action];
        const reason = allowed
          ? null
          : have
            ? `You have ${have} access here; this needs ${q.action} access`
            : 'You have no access to this resource';
        return { uri: q.uri, action: q.action, allowed, reason };
      }),
  };
}

/** Waits until the action `name` is disabled and its tooltip (ui/WhyNot.tsx) says `reason`. */
export async function expectWhyNot(name: string, reason: string, role = 'button') {
  await waitFor(() => {
    const action = screen.getByRole(role, { name });
    expect(action).toHaveProperty('disabled', true);
    fireEvent.mouseEnter(action.parentElement!);
    expect(screen.getAllByRole('tooltip').map((t) => t.textContent)).toContain(reason);
  });
}

/** Waits until the action `name` is offered: there and enabled. */
export async function expectOffered(name: string, role = 'button') {
  await waitFor(() => expect(screen.getByRole(role, { name })).toHaveProperty('disabled', false));
}
