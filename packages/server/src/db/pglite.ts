import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';

/**
 * The type ids drizzle's PGlite driver (drizzle-orm/pglite/session.js) parses itself and asks
 * PGlite to hand over as text: dates, timestamps, intervals and their arrays.
 */
const DRIZZLE_TEXT_TYPES = [1082, 1114, 1184, 1186, 1182, 1115, 1185, 1187, 1231];
const asText = (value: string) => value;

/** PGlite options that make drizzle's per-query parser table the client's own. */
export const drizzleParsers = Object.fromEntries(DRIZZLE_TEXT_TYPES.map((t) => [t, asText]));

type Query = PGlite['query'];
/** What drizzle's PGlite session calls on its client: `query`, and `transaction` on the root. */
export interface DrizzleClient {
  query: Query;
  transaction?: (fn: (tx: DrizzleClient) => Promise<unknown>) => Promise<unknown>;
}

/**
 * drizzle passes that table as `parsers` with every query, and PGlite then copies its whole
 * type-parser table to merge them, on the main thread, per query. The client is opened with the
 * same table (`drizzleParsers`), so this wrapper drops the per-query one: results are identical.
 * Transactions are wrapped too, since drizzle runs their queries on the transaction object.
 */
export function withClientParsers(client: PGlite | Transaction): DrizzleClient {
  const query = client.query.bind(client) as Query;
  const wrapped: DrizzleClient = {
    query: (sql: string, params?: unknown[], options?: QueryOptions) =>
      query(sql, params, options?.parsers ? { ...options, parsers: undefined } : options),
  } as DrizzleClient;
  if ('transaction' in client) {
    const pglite = client;
    wrapped.transaction = (fn) => pglite.transaction((tx) => fn(withClientParsers(tx)));
  }
  return wrapped;
}
