import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Db } from '../../db/client.js';
import { rateLimits } from './tables.js';

type Incr = FastifyRateLimitStore['incr'];
type RouteInfo = { routeInfo?: { method?: string | string[]; url?: string } };

/**
 * @fastify/rate-limit's store in the `rate_limits` table, so that every replica counts the same
 * hits: a fixed window per key, opened by its first hit. One statement counts a hit and answers
 * the count and what is left of the window, atomically, on the database's clock (the replicas'
 * clocks may differ).
 */
export function databaseRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  class DatabaseStore implements FastifyRateLimitStore {
    constructor(
      _options?: unknown,
      /** The route's prefix: each route counts its own hits. */
      private readonly prefix = '',
    ) {}

    incr(...[key, callback, timeWindow]: Parameters<Incr>): void {
      countHit(db, this.prefix + key, timeWindow).then(
        (res) => callback(null, res),
        (e: Error) => callback(e),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]) {
      // The merged options carry the route as `routeInfo` (see the plugin's index.js).
      const info = (routeOptions as unknown as RouteInfo).routeInfo ?? {};
      return new DatabaseStore(undefined, `${String(info.method)} ${info.url ?? ''} `);
    }
  }
  return DatabaseStore as unknown as FastifyRateLimitStoreCtor;
}

/**
 * Counts a hit of `key` in its fixed window of `windowMs` (opened by its first hit), atomically on
 * the database's clock: the hits so far, this one included, and the milliseconds left of the
 * window. The sign-in limits and the assistant's questions per minute both count here.
 */
export async function countHit(
  db: Db,
  key: string,
  windowMs: number,
): Promise<{ current: number; ttl: number }> {
  const ends = sql`now() + make_interval(secs => ${windowMs / 1000})`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, hits: 1, windowEnds: ends })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        hits: sql`case when ${rateLimits.windowEnds} <= now() then 1 else ${rateLimits.hits} + 1 end`,
        windowEnds: sql`case when ${rateLimits.windowEnds} <= now() then excluded.window_ends else ${rateLimits.windowEnds} end`,
      },
    })
    .returning({
      hits: rateLimits.hits,
      ttl: sql<string>`greatest(0, extract(epoch from (${rateLimits.windowEnds} - now())) * 1000)`,
    });
  return { current: row.hits, ttl: Math.ceil(Number(row.ttl)) };
}

/**
 * The hits of `key` in its current window and the milliseconds left of it, without counting one;
 * null when no window is open. Lets a limit refuse before the work whose failures it counts.
 */
export async function hitsOf(
  db: Db,
  key: string,
): Promise<{ current: number; ttl: number } | null> {
  const [row] = await db
    .select({
      hits: rateLimits.hits,
      ttl: sql<string>`extract(epoch from (${rateLimits.windowEnds} - now())) * 1000`,
    })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), gt(rateLimits.windowEnds, sql`now()`)));
  return row ? { current: row.hits, ttl: Math.ceil(Number(row.ttl)) } : null;
}

/** Windows that have ended count nothing; this only reclaims their rows. */
export async function pruneRateLimits(db: Db): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.windowEnds, new Date()));
}
