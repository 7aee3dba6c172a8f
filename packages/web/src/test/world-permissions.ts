import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { PROJECT_SCHEMES, type Action } from '@orrery/contract';
import type { CannedResponse } from './fetch';
import { permissionsOf } from './permissions';

/** What a member role grants on everything under its project (docs/permissions.md). */
const ROLE_ACTION: Record<string, Action> = {
  reader: 'read',
  writer: 'write',
  manager: 'manage',
  admin: 'manage',
};

/**
 * The permission check's stand-in (test/permissions.ts) for the projects of `world()`
 * (test/fixtures.ts): each project's role on every resource under it, so that `vision` (manager)
 * may do everything and `nlp` (reader) only look.
 */
export function worldPermissions(
  projects: { name: string; org: string; cluster: string; role: string }[] = WORLD_PROJECTS,
): CannedResponse {
  return permissionsOf(
    projects.flatMap((p) =>
      PROJECT_SCHEMES.map((scheme) => ({
        prefix: `${scheme}://${p.cluster}/${p.org}/${p.name}`,
        have: ROLE_ACTION[p.role],
      })),
    ),
  );
}

/** The projects of `world()` with their roles. */
export const WORLD_PROJECTS = [
  { name: 'vision', org: 'acme', cluster: 'default', role: 'manager' },
  { name: 'nlp', org: 'acme', cluster: 'default', role: 'reader' },
  { name: 'ops', org: 'acme', cluster: 'gpu', role: 'writer' },
  { name: 'web', org: 'beta', cluster: 'default', role: 'writer' },
];

/**
 * The action `name` once the permission check allowed it: a gated action stays disabled until
 * the answer arrives, so a click before then would do nothing.
 */
export async function findEnabled(
  name: string,
  scope: Pick<typeof screen, 'getByRole'> = screen,
): Promise<HTMLElement> {
  let action: HTMLElement | undefined;
  await waitFor(() => {
    action = scope.getByRole('button', { name });
    expect(action).toHaveProperty('disabled', false);
  });
  return action!;
}
