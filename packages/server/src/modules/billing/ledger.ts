import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizations } from '../../db/schema.js';
import { creditLedger } from './tables.js';

/** A database or a transaction of it: ledger entries join the caller's transaction. */
type Tx = Pick<Db, 'select' | 'insert' | 'update'>;

export type LedgerKind = 'usage' | 'grant' | 'set' | 'purchase';

export interface BalanceChange {
  org: string;
  kind: Exclude<LedgerKind, 'set'>;
  /** Signed decimal string: usage is negative, grants and purchases positive. */
  credits: string;
  userId?: string | null;
  reference?: string | null;
}

/**
 * The one way an organization's balance moves by an amount: the balance (left unlimited when it
 * is) and its ledger row in the caller's transaction. Returns the balance after, null when
 * unlimited.
 */
export async function changeBalance(tx: Tx, c: BalanceChange): Promise<string | null> {
  const [o] = await tx
    .update(organizations)
    .set({
      credits: sql`case when ${organizations.credits} is null then null else ${organizations.credits} + ${c.credits}::numeric end`,
    })
    .where(eq(organizations.name, c.org))
    .returning({ credits: organizations.credits });
  if (!o) throw new Error(`Organization ${c.org} not found`);
  await tx.insert(creditLedger).values({
    orgName: c.org,
    kind: c.kind,
    credits: c.credits,
    balanceAfter: o.credits,
    userId: c.userId ?? null,
    reference: c.reference ?? null,
  });
  return o.credits;
}

/** Sets the balance (null: unlimited), as an administrator does; the change is its ledger row. */
export async function setBalance(
  tx: Tx,
  s: { org: string; credits: string | null; userId?: string | null; reference?: string | null },
): Promise<string | null> {
  const [before] = await tx
    .select({ credits: organizations.credits })
    .from(organizations)
    .where(eq(organizations.name, s.org));
  if (!before) throw new Error(`Organization ${s.org} not found`);
  await tx.update(organizations).set({ credits: s.credits }).where(eq(organizations.name, s.org));
  await tx.insert(creditLedger).values({
    orgName: s.org,
    kind: 'set',
    // Made unlimited: no amount. Otherwise what the set added to (or took from) the old balance.
    credits:
      s.credits === null
        ? '0'
        : sql`${s.credits}::numeric - coalesce(${before.credits}::numeric, 0)`,
    balanceAfter: s.credits,
    userId: s.userId ?? null,
    reference: s.reference ?? null,
  });
  return s.credits;
}
