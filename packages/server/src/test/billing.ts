import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { vi } from 'vitest';
import type { TestServer, TestUser } from './harness.js';
import { call } from './fixtures.js';
import type { jobs } from '../db/schema.js';

/** A moment well inside a month: usage recorded then is that month's, whatever today is. */
export const MID_NOVEMBER = new Date('2026-11-15T12:00:00Z');

/**
 * Runs `read` while the process's clock says MID_NOVEMBER: the budget routes read the server's
 * own month, so a test that records November's usage reads it in November, on any date.
 */
export async function inNovember<T>(read: () => Promise<T>) {
  vi.useFakeTimers({ toFake: ['Date'], now: MID_NOVEMBER });
  try {
    return await read();
  } finally {
    vi.useRealTimers();
  }
}

/**
 * The row of a job of `owner` in the tenancy() project, running on the process runtime since
 * `startedAt` at `pricePerHour` and charged by nobody yet: what the charging code reads.
 */
export const chargeableJob = (
  owner: TestUser,
  row: Pick<typeof jobs.$inferInsert, 'pricePerHour' | 'startedAt'> &
    Partial<typeof jobs.$inferInsert>,
) => ({
  id: `job-${randomUUID()}`,
  clusterName: 'default',
  orgName: 'acme',
  projectName: 'vision',
  ownerId: owner.id,
  owner: owner.username,
  presetName: 'cpu-small',
  status: 'running',
  container: { image: 'busybox', resources: { cpu: 0.1, memory: 2 ** 20 } },
  runtime: 'process',
  ...row,
});

/**
 * Tests' view of an organization's money: the balance the admin area shows, and what the ledger
 * route's rows add up to (the balance last set, plus every change since).
 */
export async function balanceOf(s: TestServer, admin: TestUser, org = 'acme') {
  const orgs = await call(s, 'GET', '/apis/admin/v1/orgs', admin);
  return (orgs.body as { name: string; balance: { credits: string | null } }[]).find(
    (o) => o.name === org,
  )!.balance.credits;
}

export async function ledgerOf(s: TestServer, manager: TestUser, org = 'acme') {
  const ledger = await call(s, 'GET', `/apis/billing/v1/orgs/${org}/ledger?size=500`, manager);
  const rows = [...ledger.body.items].reverse() as {
    kind: string;
    credits: string;
    balance_after: string | null;
    reference: string | null;
  }[];
  const lastSet = rows.map((r) => r.kind).lastIndexOf('set');
  const sum = rows
    .slice(lastSet + 1)
    .reduce((a, r) => a + Number(r.credits), Number(rows[lastSet]?.balance_after ?? 0));
  return { rows, sum };
}

/** Budget alerts in a server's outbox (the embedded default's mailer), decoded. */
export function budgetAlerts(s: TestServer) {
  const dir = join(s.config.dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  return files
    .map((f) =>
      readFileSync(join(dir, f), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/\r?\n /g, ' '),
    )
    .filter((m) => m.includes('Subject: Budget alert'));
}
