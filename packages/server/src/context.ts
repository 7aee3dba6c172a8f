import type { JWK } from 'jose';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { TokenVerifier } from './auth/principal.js';
import type { Mailer } from './mail/mailer.js';

/** What every module is given: configuration, the database, keys and the token verifier. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  /** Signing keys of the embedded provider (empty with an external issuer). */
  keys: JWK[];
  verifier: TokenVerifier;
  mailer: Mailer;
}
