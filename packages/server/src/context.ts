import type { JWK } from 'jose';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { TokenVerifier } from './auth/principal.js';
import type { Mailer } from './mail/mailer.js';
import type { ClusterCatalog } from './modules/clusters/store.js';

/**
 * What every module is given: configuration, the database, keys, the token verifier, and what the
 * server caches for itself.
 */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  /** Signing keys of the embedded provider (empty with an external issuer). */
  keys: JWK[];
  verifier: TokenVerifier;
  mailer: Mailer;
  /** The clusters with their pools and presets, kept for seconds (clusters/store.ts). */
  clusterCatalog: ClusterCatalog;
}
