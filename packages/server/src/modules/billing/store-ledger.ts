import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { LedgerEntry, PageQuery } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { orgMembers, organizations, users } from '../../db/schema.js';
import { creditLedger } from './tables.js';

/** A database or a transaction of it: ledger entries join the caller's transaction. */
export type Tx = Pick<Db, 'select' | 'insert' | 'update'>;

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
  const before = await orgCredits(tx, s.org);
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

/** An organization's balance (`credits` null: unlimited); undefined when there is none. */
export async function orgCredits(tx: Pick<Db, 'select'>, org: string) {
  const [row] = await tx
    .select({ credits: organizations.credits })
    .from(organizations)
    .where(eq(organizations.name, org));
  return row;
}

/** Takes an amount from a member's own limit in an organization, unless it is unlimited. */
export async function takeMemberCredits(tx: Tx, org: string, userId: string, amount: string) {
  await tx
    .update(orgMembers)
    .set({ credits: sql`${orgMembers.credits} - ${amount}::numeric` })
    .where(
      and(
        eq(orgMembers.orgName, org),
        eq(orgMembers.userId, userId),
        sql`${orgMembers.credits} is not null`,
      ),
    );
}

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
