import type { ReactNode } from 'react';
import type { OrgRole } from '@orrery/contract';
import { Org, OrgUser } from '@orrery/contract';
import type { CannedResponse } from '../../test/fetch';
import { permissionsOf } from '../../test/permissions';
import { stubFetch } from '../../test/fetch';
import { world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import type { LedgerEntryWire, PaymentsMode, UsageWire } from '../../api/billing';

export const B = '/apis/billing/v1';

/** Canned answers in the shapes the billing server parts agreed on (common wire shapes). */
export const billingWire = {
  payments: (mode: PaymentsMode): CannedResponse => ({ url: `${B}/payments`, body: { mode } }),
  orgBalance: (credits: string | null, role: OrgRole = 'manager'): CannedResponse => ({
    url: '/api/v1/orgs/acme',
    body: Org.parse({ name: 'acme', role, balance: { credits }, projects_count: 3 }),
  }),
  orgUser: (name: string, credits: string | null, role: OrgRole = 'user', spent = '0') =>
    OrgUser.parse({
      user_name: name,
      org_name: 'acme',
      role,
      balance: { credits, spent_credits: spent },
      user_info: {
        email: `${name}@example.org`,
        first_name: null,
        last_name: null,
        created_at: '2026-01-01T00:00:00Z',
      },
    }),
  member: (credits: string | null): CannedResponse => ({
    url: '/apis/admin/v1/orgs/acme/users/alice',
    body: billingWire.orgUser('alice', credits, 'manager'),
  }),
  usage: (body: UsageWire, url: RegExp = new RegExp(`^${B}/usage\\?`)): CannedResponse => ({
    url,
    body,
  }),
  ledgerEntry: (over: Partial<LedgerEntryWire> = {}): LedgerEntryWire => ({
    id: 1,
    kind: 'purchase',
    credits: '100',
    balance_after: '1334.5',
    user_name: 'alice',
    reference: null,
    created_at: '2026-11-20T10:00:00Z',
    ...over,
  }),
};

/** alice in acme with the given organization role; acme's balance 1234.5 unless told. */
export function renderBilling(
  ui: ReactNode,
  responses: CannedResponse[],
  { role = 'manager' as OrgRole, credits = '1234.5' as string | null, route = '/?org=acme' } = {},
) {
  const w = world();
  w.user.orgs = w.user.orgs!.map((o) =>
    o.name === 'acme' ? { ...o, role, balance: { credits } } : o,
  );
  // The permission engine answers as it would for the role: managers and admins manage it.
  const grant = permissionsOf([
    { prefix: 'org://acme', have: role === 'user' ? 'read' : 'manage' },
  ]);
  const fetch = stubFetch([grant, ...responses]);
  const view = renderSignedIn(ui, { user: w.user, sessionConfig: w.sessionConfig, route });
  return { ...view, ...fetch };
}
