import { count, desc, eq } from 'drizzle-orm';
import type { LedgerEntry, PageQuery } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { creditLedger } from './tables.js';

/** An organization's ledger, newest first, one page of it and how many rows there are. */
export async function ledgerPage(
  db: Db,
  org: string,
  q: PageQuery,
): Promise<{ items: LedgerEntry[]; total: number }> {
  const rows = await db
    .select({
      id: creditLedger.id,
      kind: creditLedger.kind,
      credits: creditLedger.credits,
      balanceAfter: creditLedger.balanceAfter,
      userName: users.username,
      reference: creditLedger.reference,
      createdAt: creditLedger.createdAt,
    })
    .from(creditLedger)
    .leftJoin(users, eq(users.id, creditLedger.userId))
    .where(eq(creditLedger.orgName, org))
    .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
    .limit(q.size)
    .offset((q.page - 1) * q.size);
  const [{ n }] = await db
    .select({ n: count() })
    .from(creditLedger)
    .where(eq(creditLedger.orgName, org));
  return {
    items: rows.map((r) => ({
      id: r.id,
      kind: r.kind as LedgerEntry['kind'],
      credits: r.credits,
      balance_after: r.balanceAfter,
      user_name: r.userName,
      reference: r.reference,
      created_at: r.createdAt.toISOString(),
    })),
    total: n,
  };
}
