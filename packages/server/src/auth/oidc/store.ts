import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../db/client.js';
import { oidcPayloads } from '../../db/schema.js';

/** A row past its expiry is gone for the provider, even before `pruneExpired` deletes it. */
const notExpired = () => or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, new Date()));

/**
 * oidc-provider's storage (sessions, interactions, grants, codes, refresh tokens) in the
 * `oidc_payloads` table, keyed by (model name, id). Plain SQL through drizzle, so it behaves
 * the same on PGlite and PostgreSQL, and every replica sees the same sessions.
 */
export class DrizzleAdapter implements Adapter {
  constructor(
    private readonly db: Db,
    private readonly type: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const values = {
      payload,
      grantId: payload.grantId ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      consumedAt: null,
    };
    await this.db
      .insert(oidcPayloads)
      .values({ id, type: this.type, ...values })
      .onConflictDoUpdate({ target: [oidcPayloads.type, oidcPayloads.id], set: values });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(oidcPayloads.id, id));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(oidcPayloads.uid, uid));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(oidcPayloads.userCode, userCode));
  }

  async consume(id: string): Promise<void> {
    await this.db
      .update(oidcPayloads)
      .set({ consumedAt: new Date() })
      .where(and(eq(oidcPayloads.type, this.type), eq(oidcPayloads.id, id)));
  }

  async destroy(id: string): Promise<void> {
    await this.db
      .delete(oidcPayloads)
      .where(and(eq(oidcPayloads.type, this.type), eq(oidcPayloads.id, id)));
  }

  /** Revoking a grant removes every token issued under it, whatever its model. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
  }

  private async findWhere(cond: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
    const [row] = await this.db
      .select()
      .from(oidcPayloads)
      .where(and(eq(oidcPayloads.type, this.type), cond, notExpired()))
      .limit(1);
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    // The provider detects reuse of codes and refresh tokens through `consumed`.
    return row.consumedAt
      ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) }
      : payload;
  }
}

/** Expired rows are never returned; this only reclaims their space. */
export async function pruneExpired(db: Db): Promise<void> {
  await db.delete(oidcPayloads).where(lt(oidcPayloads.expiresAt, new Date()));
}

/**
 * A payload kept under a type no provider model uses (so no migration is needed), such as the
 * cookie keys (cookie-keys.ts); undefined when there is none.
 */
export async function ownPayload(db: Db, type: string, id: string): Promise<unknown> {
  const [row] = await db
    .select({ payload: oidcPayloads.payload })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.type, type), eq(oidcPayloads.id, id)));
  return row?.payload;
}

/** Stores such a payload unless one is there already: the first writer wins. */
export async function insertOwnPayload(db: Db, type: string, id: string, payload: object) {
  await db.insert(oidcPayloads).values({ type, id, payload }).onConflictDoNothing();
}
